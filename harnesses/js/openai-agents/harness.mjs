#!/usr/bin/env node
// rttool harness for the OpenAI Agents SDK for JavaScript: rttool-adapter/1 over stdio,
// one JSON request per line in, one JSON reply per line out, in order.
//
//   rttool run --impl 'stdio:node harnesses/js/openai-agents/harness.mjs'

import { createInterface } from 'node:readline';

// Standard output carries the protocol only: anything the SDK logs goes to stderr.
for (const level of /** @type {const} */ (['log', 'info', 'warn', 'debug'])) {
  console[level] = (...args) => process.stderr.write(`${args.map(String).join(' ')}\n`);
}

const { setTracingDisabled } = await import('@openai/agents');
const { Dispatcher } = await import('./lib/protocol.mjs');

setTracingDisabled(true);

const MAX_LINE = 64 * 1024 * 1024;
const dispatcher = new Dispatcher();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });

for await (const line of lines) {
  if (line.trim() === '') continue;
  /** @type {Record<string, unknown>} */
  let reply;
  if (line.length > MAX_LINE) {
    reply = { error: { code: 'too_large', message: `request over ${MAX_LINE} characters` } };
  } else {
    let request;
    try {
      request = JSON.parse(line);
    } catch (err) {
      request = undefined;
      reply = { error: { code: 'bad_json', message: `request is not JSON: ${String(err)}` } };
    }
    if (request !== undefined) reply = await dispatcher.reply(request);
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}
