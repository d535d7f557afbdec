import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { HarnessProcess, play, protocolValidator } from './harness-process.mjs';

const check = protocolValidator();
/** @type {HarnessProcess} */
let harness;

before(async () => {
  harness = new HarnessProcess();
  const hello = await harness.send({ cmd: 'hello', protocol: 'rttool-adapter/1' });
  check('urn:rttool:adapter-1:messages#/$defs/handshake', hello);
});

after(async () => {
  assert.deepEqual(await harness.send({ cmd: 'bye' }), {});
  await harness.close();
});

/** @param {Record<string, any>[]} records */
function checkRecords(records) {
  for (const record of records) check('urn:rttool:adapter-1:trace#/$defs/step_record', record);
}

const report = (name, output) => ({ name, input_schema: {}, returns: [{ output }] });

test('a tool call runs once and its output reaches the model whole', async () => {
  const { records } = await play(harness, {
    id: 'plain',
    tools: [report('make', { summary: 'ok', artifacts: [{ type: 'link', payload: { u: 1 } }] })],
    model: [{ tool_calls: [{ name: 'make', args: { a: 1 }, tool_call_id: 'c1' }] }, { text: 'fin' }],
    steps: [{ op: 'start_turn', turn: 't1', message: 'hi' }],
  });
  checkRecords(records);
  const [run] = records[0].runs;
  assert.equal(run.end, 'completed');
  assert.deepEqual(run.side_effects, [{ tool: 'make', input: { a: 1 }, tool_call_id: 'c1' }]);
  assert.equal(run.passes[0].results[0].disposition, 'executed');
  assert.deepEqual(run.passes[0].tool_messages, [
    { role: 'tool', tool_call_id: 'c1', content: '{"summary":"ok","artifacts":[{"type":"link","payload":{"u":1}}]}' },
  ]);
  assert.equal(run.model_inputs.length, 2);
  assert.deepEqual(run.model_inputs[0].messages, [{ role: 'user', content: 'hi' }]);
  assert.equal(records[0].wire.main.t1.status, 'completed');
});

test('an unknown tool is answered to the model and the run goes on', async () => {
  const { records } = await play(harness, {
    id: 'unknown',
    tools: [report('make', 1)],
    model: [{ tool_calls: [{ name: 'nope', args: {}, tool_call_id: 'c1' }] }],
    steps: [{ op: 'start_turn', turn: 't1' }],
  });
  checkRecords(records);
  const [run] = records[0].runs;
  assert.equal(run.end, 'completed');
  assert.equal(run.passes[0].results[0].disposition, 'unknown_tool');
  assert.deepEqual(run.side_effects, []);
});

test('a repeated call id in a later pass is dropped: neither run nor answered', async () => {
  const call = { name: 'make', args: {}, tool_call_id: 'c1' };
  const { records } = await play(harness, {
    id: 'repeat',
    tools: [report('make', 1)],
    model: [{ tool_calls: [call] }, { tool_calls: [call] }, { text: 'fin' }],
    steps: [{ op: 'start_turn', turn: 't1' }],
  });
  checkRecords(records);
  const [run] = records[0].runs;
  assert.equal(run.side_effects.length, 1);
  assert.deepEqual(
    run.passes.map((pass) => pass.results.length),
    [1, 0],
  );
});

test('each gated call takes its own decision, and survives a restart', async () => {
  const gated = { name: 'send', input_schema: {}, gate: true, returns: [{ output: 'sent' }] };
  const { records } = await play(harness, {
    id: 'gates',
    tools: [gated],
    model: [
      {
        tool_calls: [
          { name: 'send', args: { to: 'a' }, tool_call_id: 'g1' },
          { name: 'send', args: { to: 'b' }, tool_call_id: 'g2' },
        ],
      },
      { text: 'fin' },
    ],
    steps: [
      { op: 'start_turn', turn: 't1' },
      { op: 'restart' },
      { op: 'approve', turn: 't1' },
      { op: 'decline', turn: 't1', reason: 'not b' },
      { op: 'approve', turn: 't1' },
    ],
  });
  checkRecords(records);
  assert.deepEqual(
    records.map((r) => [r.outcome, r.runs[0]?.end ?? null, r.wire.main.t1.status]),
    [
      ['ok', 'paused', 'paused'],
      ['ok', null, 'paused'],
      ['ok', 'paused', 'paused'],
      ['ok', 'completed', 'completed'],
      ['refused', null, 'completed'],
    ],
  );
  assert.deepEqual(records[2].runs[0].side_effects, [{ tool: 'send', input: { to: 'a' }, tool_call_id: 'g1' }]);
  const declined = records[3].runs[0].passes[0].results[0];
  assert.equal(declined.disposition, 'declined');
  assert.deepEqual(records[3].runs[0].side_effects, []);
  assert.equal(records[4].error.code, 'not_paused');
});

test('a scenario with a question or a poll is declined at start', async () => {
  const question = await harness.send({
    cmd: 'start',
    scenario: { id: 'q', model: [{ question: 'Which?' }], steps: [{ op: 'start_turn', turn: 't1' }] },
  });
  check('urn:rttool:adapter-1:messages#/$defs/unsupported', question);
  assert.equal(question.unsupported.capability, 'question');
  const poll = await harness.send({ cmd: 'start', scenario: { id: 'p', steps: [{ op: 'poll' }] } });
  assert.equal(poll.unsupported.capability, 'poll');
});

test('an unknown session is an error reply, and a reused turn label is refused', async () => {
  const bad = await harness.send({ cmd: 'step', session: 's-999', index: 0 });
  check('urn:rttool:adapter-1:messages#/$defs/error_reply', bad);
  assert.equal(bad.error.code, 'unknown_session');
  const { records } = await play(harness, {
    id: 'twice',
    steps: [
      { op: 'start_turn', turn: 't1' },
      { op: 'start_turn', turn: 't1' },
    ],
  });
  checkRecords(records);
  assert.equal(records[1].outcome, 'refused');
});

test('a run the SDK fails is a failed step carrying the SDK error', async () => {
  const { records } = await play(harness, {
    id: 'no-id',
    tools: [report('make', 1)],
    model: [{ tool_calls: [{ name: 'make', args: {} }] }, { text: 'fin' }],
    steps: [{ op: 'start_turn', turn: 't1' }],
  });
  checkRecords(records);
  assert.equal(records[0].outcome, 'failed');
  assert.equal(records[0].error.code, 'ModelBehaviorError');
  const [run] = records[0].runs;
  assert.equal(run.end, 'failed');
  // The body of the call without an id ran before the SDK failed the run.
  assert.deepEqual(run.side_effects, [{ tool: 'make', input: {}, tool_call_id: null }]);
  assert.equal(records[0].wire.main.t1.status, 'failed');
});
