#!/usr/bin/env node
// Smoke check for the production engines: can this machine reach EventStoreDB and the MongoDB
// replica set the gateway is configured with? Read-only; exits 0 when both answer, 1 otherwise.
//
//   EVENT_STORE_URL=esdb://localhost:2113?tls=false \
//   READ_STORE_URL='mongodb://localhost:27017/tollgate?replicaSet=rs0&directConnection=true' \
//   node eventstore/check-engines.mjs
//
// Every call runs under our own deadline: against a port that accepts TCP but never answers, the
// drivers can hang past theirs (see STACK-NOTES).
import { EventStoreDBClient, FORWARDS, START } from '@eventstore/db-client';
import { MongoClient } from 'mongodb';

const TIMEOUT_MS = Number(process.env.CHECK_TIMEOUT_MS ?? 3000);

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {string} what
 * @returns {Promise<T>}
 */
const within = (promise, what) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what}: no answer in ${TIMEOUT_MS} ms`)),
      TIMEOUT_MS,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });

/** @param {string} url */
async function checkEventStore(url) {
  const client = EventStoreDBClient.connectionString(url);
  try {
    const read = async () => {
      const events = client.readAll({ direction: FORWARDS, fromPosition: START, maxCount: 1 });
      let count = 0;
      for await (const _event of events) count += 1;
      return count;
    };
    await within(read(), `EventStoreDB unreachable at ${url}`);
    return 'EventStoreDB answers ($all readable)';
  } finally {
    void client.dispose().catch(() => undefined);
  }
}

/** @param {string} url */
async function checkReadStore(url) {
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: TIMEOUT_MS,
    connectTimeoutMS: TIMEOUT_MS,
  });
  try {
    const hello = await within(
      client.connect().then(() => client.db('admin').command({ hello: 1 })),
      `MongoDB unreachable at ${url}`,
    );
    if (!hello.setName) {
      return 'MongoDB answers, but NOT as a replica set: projections fall back to idempotent writes without transactions';
    }
    return `MongoDB answers: replica set ${String(hello.setName)}, primary ${String(hello.primary)}`;
  } finally {
    void client.close().catch(() => undefined);
  }
}

const checks = [
  ['EVENT_STORE_URL', checkEventStore],
  ['READ_STORE_URL', checkReadStore],
];

let failed = false;
for (const [name, check] of checks) {
  const url = process.env[name];
  if (!url) {
    console.log(`- ${name} not set: skipped (the gateway would use its embedded SQLite store)`);
    continue;
  }
  try {
    console.log(`ok ${name}: ${await check(url)}`);
  } catch (error) {
    failed = true;
    console.log(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.exit(failed ? 1 : 0);
