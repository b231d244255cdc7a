import { Box, Typography } from '@mantine/core';
import { marked } from 'marked';
import { useMemo } from 'react';

/**
 * Admin-written page content (home, about): a URL is embedded as a page, anything else is
 * Markdown or HTML. Only the super administrator can set it, like the footer HTML.
 */
export function RichContent({ content }: { content: string }) {
  const trimmed = content.trim();
  const html = useMemo(
    () => (/^https?:\/\//.test(trimmed) ? '' : marked.parse(trimmed, { async: false })),
    [trimmed],
  );

  if (!html) {
    return (
      <Box
        component="iframe"
        src={trimmed}
        title="content"
        style={{ width: '100%', height: 'calc(100vh - 140px)', border: 'none' }}
      />
    );
  }
  return (
    <Typography>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
