#!/usr/bin/env node
// Writes a .br and a .gz copy beside every compressible file of the built console, so the gateway
// sends them as they are (@fastify/static preCompressed) instead of compressing on each request.
// Usage: node scripts/precompress.mjs [dir]   (default: dist beside this script's package)
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|xml|wasm)$/;
/** Below this the headers outweigh the saving. */
const MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

function precompress(file) {
  const bytes = readFileSync(file);
  if (bytes.length < MIN_BYTES) return 0;
  const br = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gz = gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION });
  let written = 0;
  // A copy no smaller than the file is left out: the file itself is then sent.
  if (br.length < bytes.length) written += write(`${file}.br`, br);
  if (gz.length < bytes.length) written += write(`${file}.gz`, gz);
  return written;
}

function write(file, bytes) {
  writeFileSync(file, bytes);
  return 1;
}

const dir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
let count = 0;
for (const file of files(dir)) if (COMPRESSIBLE.test(file)) count += precompress(file);
console.log(`precompressed ${count} files in ${path.relative(process.cwd(), dir) || '.'}`);
