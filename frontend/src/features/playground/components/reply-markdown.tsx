import { Typography } from '@mantine/core';
import { useMemo } from 'react';
import { renderReplyMarkdown } from '../utils/markdown';

/** A reply's text as Markdown (code blocks included); raw HTML in it is shown, never run. */
export function ReplyMarkdown({ content }: { content: string }) {
  const html = useMemo(() => renderReplyMarkdown(content), [content]);
  return (
    <Typography fz="sm" style={{ overflowWrap: 'anywhere' }} data-testid="reply-markdown">
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
