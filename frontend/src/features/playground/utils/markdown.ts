import { Marked, type Tokens } from 'marked';

/** Link and image addresses a reply may carry: the web, mail, and anchors / paths of this site. */
const SAFE_URL = /^(https?:|mailto:|#|\/(?!\/))/i;

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/**
 * Markdown for model replies, which are untrusted text: raw HTML is shown as text, never
 * rendered, and a link or image whose address is not http(s), mailto or a path of this site
 * (javascript:, data:, …) loses it. Code blocks come out as <pre><code class="language-…">.
 */
const replyMarked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
  },
  walkTokens: (token) => {
    if (token.type === 'link' || token.type === 'image') {
      const link = token as Tokens.Link | Tokens.Image;
      if (!SAFE_URL.test(link.href.trim())) link.href = '#';
    }
  },
});

/** A reply's Markdown as safe HTML. */
export function renderReplyMarkdown(markdown: string): string {
  return replyMarked.parse(markdown, { async: false });
}
