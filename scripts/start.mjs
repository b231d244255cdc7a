#!/usr/bin/env node
// `npm start`: installs what is missing, builds what is stale, then runs the gateway on PORT (3000)
// with embedded storage under DATA_DIR (./data). `npm run start:dev`: server on watch + Vite dev
// server with hot reload on :5173 proxying the API to :3000.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dev = process.argv.includes('--dev');
process.env.npm_config_nodedir ??= '/usr';

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Newest modification time under these paths (files only). */
function newest(paths) {
  let latest = 0;
  const walk = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path))
        if (entry !== 'node_modules' && entry !== 'dist') walk(join(path, entry));
    } else latest = Math.max(latest, stat.mtimeMs);
  };
  paths.forEach((p) => walk(join(root, p)));
  return latest;
}

const stale = (output, sources) =>
  !existsSync(join(root, output)) || newest([output]) < newest(sources);

if (!existsSync(join(root, 'node_modules/.package-lock.json'))) run('npm', ['ci']);
if (stale('dist/apps/gateway/src/main.js', ['apps', 'libs', 'tsconfig.json']))
  run('npm', ['run', 'build:server']);

const children = [];
const start = (command, args) => {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  children.push(child);
  child.on('exit', (code) => {
    children.forEach((c) => c !== child && c.kill('SIGTERM'));
    process.exit(code ?? 0);
  });
};
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => children.forEach((c) => c.kill(signal)));

/**
 * Server on watch: tsc re-emits, then aliases are rewritten, then the server restarts — in that
 * order, so the server never starts on half-rewritten output.
 */
function watchServer() {
  let server;
  const restart = () => {
    server?.removeAllListeners('exit');
    server?.kill('SIGTERM');
    server = spawn('node', ['dist/apps/gateway/src/main.js'], {
      cwd: root,
      stdio: 'inherit',
      env: process.env,
    });
    children.push(server);
  };
  const tsc = spawn(
    'npx',
    ['tsc', '-w', '--preserveWatchOutput', '-p', 'apps/gateway/tsconfig.app.json'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(tsc);
  tsc.stdout.on('data', (chunk) => {
    const text = chunk.toString();
    process.stdout.write(text);
    if (/Found 0 errors/.test(text)) {
      run('npx', ['tsc-alias', '-p', 'apps/gateway/tsconfig.app.json']);
      restart();
    }
  });
}

if (dev) {
  watchServer();
  start('npm', ['run', 'dev', '-w', 'frontend']);
} else {
  if (
    stale('frontend/dist/index.html', [
      'frontend/src',
      'frontend/index.html',
      'frontend/public',
      'libs/contracts',
    ])
  )
    run('npm', ['run', 'build:console']);
  start('node', ['dist/apps/gateway/src/main.js']);
}
