/** One part of a multipart/form-data body: a field (value) or a file (filename, size). */
export interface MultipartPart {
  readonly name: string;
  readonly filename?: string;
  readonly contentType?: string;
  /** Text of a field; for files, left out (see size). */
  readonly value?: string;
  readonly size: number;
}

/** The boundary of a `multipart/form-data; boundary=…` content type, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2])?.trim() : undefined;
}

/**
 * Small multipart/form-data reader for what OpenAI clients send (audio uploads): enough to assert
 * on field values and file sizes, not a general MIME parser.
 */
export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const afterDelimiter = start + delimiter.length;
    // "--" after the delimiter closes the body.
    if (body[afterDelimiter] === 0x2d && body[afterDelimiter + 1] === 0x2d) break;
    const next = body.indexOf(delimiter, afterDelimiter);
    if (next === -1) break;
    const chunk = body.subarray(afterDelimiter + 2, next - 2); // skip CRLF after, CRLF before
    const headerEnd = chunk.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = chunk.subarray(0, headerEnd).toString('utf8');
      const content = chunk.subarray(headerEnd + 4);
      const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
      const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? '';
      const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
      const contentType = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim();
      parts.push(
        filename === undefined
          ? { name, value: content.toString('utf8'), size: content.length }
          : { name, filename, ...(contentType ? { contentType } : {}), size: content.length },
      );
    }
    start = next;
  }
  return parts;
}
