// A real SMTP server process for the mail e2e tests: smtp-server accepts every message (after AUTH
// when SMTP_SINK_USER is set) and writes it, raw, as <n>.eml into the directory given as argv[2].
// Prints {"port": N} once listening. The password comes from the environment, not argv (ps).
import { writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node smtp-sink.mjs <mail dir>');
const user = process.env.SMTP_SINK_USER ?? '';
const pass = process.env.SMTP_SINK_PASS ?? '';
let received = 0;

const server = new SMTPServer({
  authOptional: user === '',
  allowInsecureAuth: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onAuth(auth, _session, callback) {
    if (auth.username === user && auth.password === pass) callback(null, { user });
    else callback(new Error('Invalid username or password'));
  },
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      received += 1;
      const name = String(received).padStart(5, '0');
      // Written then renamed: a reader never sees half a message.
      writeFileSync(join(dir, `${name}.tmp`), Buffer.concat(chunks));
      renameSync(join(dir, `${name}.tmp`), join(dir, `${name}.eml`));
      callback();
    });
  },
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.server.address().port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
