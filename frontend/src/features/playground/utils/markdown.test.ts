import { describe, expect, it } from 'vitest';
import { renderReplyMarkdown } from './markdown';

describe('renderReplyMarkdown', () => {
  it('renders Markdown and fenced code', () => {
    const html = renderReplyMarkdown('# Title\n\n```ts\nconst a = 1 < 2;\n```');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<pre><code class="language-ts">const a = 1 &lt; 2;');
  });

  it('never renders raw HTML nor unsafe addresses', () => {
    const html = renderReplyMarkdown(
      '<script>alert(1)</script>\n\nhi <img src=x onerror=alert(1)> [a](javascript:alert(1)) ![b](data:text/html,x)',
    );
    expect(html).not.toMatch(/<script|<img src="?x|javascript:|data:text/);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<a href="#">a</a>');
  });

  it('keeps web links', () => {
    expect(renderReplyMarkdown('[docs](https://example.com/a)')).toContain(
      '<a href="https://example.com/a">docs</a>',
    );
  });
});
