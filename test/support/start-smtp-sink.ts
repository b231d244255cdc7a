import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The SMTP server process of the mail tests (smtp-sink.mjs: smtp-server in a child node): it
 * accepts `user`/`pass` and writes one .eml file per accepted message into `dir`.
 */
export async function startSmtpSink(
  dir: string,
  user: string,
  pass: string,
): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(__dirname, 'smtp-sink.mjs'), dir], {
    env: { ...process.env, SMTP_SINK_USER: user, SMTP_SINK_PASS: pass },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`smtp sink exited with ${code}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  return { port, child };
}
