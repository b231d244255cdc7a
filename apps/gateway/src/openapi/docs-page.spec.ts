import { IsInt, IsString } from 'class-validator';
import { Optional } from '../shared/dto-fields';
import { escapeHtml, renderDocsPage } from './docs-page';
import { openApiDocument } from './openapi-document';

class GadgetBody {
  @IsString() name!: string;
  @Optional() @IsInt() size?: number;
}

const doc = openApiDocument(
  [
    {
      method: 'PUT',
      path: '/api/gadget/{id}',
      tag: 'Gadget<s>',
      operationId: 'Gadget_update',
      summary: 'update',
      role: 'root',
      family: 'console',
      pathParams: [{ name: 'id', type: 'integer' }],
      body: GadgetBody,
    },
  ],
  '0.0.1',
);

describe('renderDocsPage', () => {
  const html = renderDocsPage(doc);

  it('escapes text for HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });

  it('renders a section per tag with the method badge, path, role, parameters and body fields', () => {
    expect(html).toContain('<h2 id="tag-Gadget-s-">Gadget&lt;s&gt;</h2>');
    expect(html).toContain(
      '<span class="m put">PUT</span><span class="path">/api/gadget/{id}</span>',
    );
    expect(html).toContain('<span class="role">root</span>');
    expect(html).toContain(
      '<tr><td><code>id</code></td><td>path</td><td>integer</td><td>required</td></tr>',
    );
    expect(html).toContain('Body (application/json) GadgetBody');
    expect(html).toContain('<tr><td><code>name</code></td><td>string</td><td>required</td></tr>');
    expect(html).toContain('<tr><td><code>size</code></td><td>integer</td><td></td></tr>');
  });

  it('is one self-contained page: inline style, no script, nothing loaded from elsewhere', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|https?:\/\//i);
  });

  it('titles the page "<title> reference" in each language, the API named once', () => {
    const titleOf = (page: string) => /<title>(.*?)<\/title>/.exec(page)?.[1];
    expect([titleOf(html), titleOf(renderDocsPage(doc, 'zh-CN'))]).toEqual([
      'Tollgate API reference',
      'Tollgate API 参考',
    ]);
  });
});
