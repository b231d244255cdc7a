import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The text of each content chunk a stalled upstream sends. */
export const STALLED_CHUNK = 'tok ';

/**
 * An OpenAI-wire upstream whose chat streams send a role chunk and `sent` content chunks
 * (STALLED_CHUNK each), then stall: no more bytes, no usage, no [DONE], until the gateway cuts the
 * connection or `close()` is called. What a provider hanging mid-answer looks like to the relay.
 */
export async function startStalledUpstream(sent: number) {
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      if (!req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: object) =>
        `data: ${JSON.stringify({
          id: 'chatcmpl-stalled',
          object: 'chat.completion.chunk',
          created: 0,
          model: 'gpt-4o-mini',
          choices: [{ index: 0, delta, finish_reason: null }],
        })}\n\n`;
      let text = chunk({ role: 'assistant', content: '' });
      for (let i = 0; i < sent; i += 1) text += chunk({ content: STALLED_CHUNK });
      res.write(text);
      open.add(res);
      res.once('close', () => open.delete(res));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Streams the gateway has not cut yet. */
    get open(): number {
      return open.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
