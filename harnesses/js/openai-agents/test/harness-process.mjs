// Drive harness.mjs as rttool does: a child process, one JSON line each way.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';

const here = new URL('..', import.meta.url);
const harnessPath = fileURLToPath(new URL('harness.mjs', here));
const schemaDir = new URL('../../../adapters/schemas/', here);

/** A validator over the protocol's three schemas, loaded together. */
export function protocolValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  for (const name of ['messages.json', 'scenario.json', 'trace.json']) {
    ajv.addSchema(JSON.parse(readFileSync(new URL(name, schemaDir), 'utf8')));
  }
  /** @param {string} ref @param {unknown} value */
  return (ref, value) => {
    const validate = ajv.getSchema(ref);
    if (validate === undefined) throw new Error(`no schema ${ref}`);
    if (!validate(value)) {
      throw new Error(`${ref}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
    }
  };
}

/** A running harness process, answering one request at a time. */
export class HarnessProcess {
  constructor() {
    this.child = spawn(process.execPath, [harnessPath], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  /** @param {unknown} request @returns {Promise<any>} */
  async send(request) {
    this.child.stdin.write(`${JSON.stringify(request)}\n`);
    const { value, done } = await this.lines.next();
    if (done) throw new Error('the harness closed its output');
    return JSON.parse(value);
  }

  async close() {
    this.child.stdin.end();
    await new Promise((resolve) => this.child.once('exit', resolve));
  }
}

/**
 * Play a whole scenario: start, every step, finish. Returns the start reply and the
 * step records.
 * @param {HarnessProcess} harness
 * @param {Record<string, any>} scenario
 */
export async function play(harness, scenario) {
  const started = await harness.send({ cmd: 'start', scenario });
  if (started.session === undefined) return { started, records: [] };
  const records = [];
  for (let index = 0; index < scenario.steps.length; index += 1) {
    records.push(await harness.send({ cmd: 'step', session: started.session, index }));
  }
  await harness.send({ cmd: 'finish', session: started.session });
  return { started, records };
}
