import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ModelScript, carriedCalls, completionFor, FALLBACK_REPLY } from '../lib/scripted-model.mjs';
import { scriptedReturn } from '../lib/scripted-tools.mjs';

test('a well-formed call is carried with its id and its arguments as JSON text', () => {
  const [call] = carriedCalls([{ name: 'make', args: { topic: 'q3' }, tool_call_id: 'call_1' }]);
  assert.deepEqual(call, { position: 0, name: 'make', id: 'call_1', argumentsText: '{"topic":"q3"}' });
});

test('"args": [] and a missing args both mean no arguments', () => {
  const calls = carriedCalls([
    { name: 'a', args: [], tool_call_id: 'c1' },
    { name: 'b', tool_call_id: 'c2' },
  ]);
  assert.deepEqual(
    calls.map((c) => c.argumentsText),
    ['{}', '{}'],
  );
});

test('a list or a string of arguments is sent as it is, never turned into a map', () => {
  const calls = carriedCalls([
    { name: 'a', args: [1, 2], tool_call_id: 'c1' },
    { name: 'b', args: '{"x": 1}', tool_call_id: 'c2' },
  ]);
  assert.deepEqual(
    calls.map((c) => c.argumentsText),
    ['[1,2]', '"{\\"x\\": 1}"'],
  );
});

test('what the Chat Completions interface cannot carry is left out, keeping positions', () => {
  const calls = carriedCalls([
    'not a call',
    { name: 7, args: {}, tool_call_id: 'c1' },
    { name: ['x'], args: {} },
    { name: 'ok', args: {}, tool_call_id: 9 },
    { name: '', args: {}, tool_call_id: 'blank' },
    { name: 'noid', args: {}, tool_call_id: null },
  ]);
  assert.deepEqual(
    calls.map((c) => [c.position, c.name, c.id]),
    [
      [4, '', 'blank'],
      [5, 'noid', undefined],
    ],
  );
});

test('a reply becomes a chat completion with tool calls only when some were carried', () => {
  const withCalls = completionFor({ tool_calls: [{ name: 'a', args: {}, tool_call_id: 'c1' }] }, 'r1');
  assert.equal(withCalls.choices[0].finish_reason, 'tool_calls');
  assert.deepEqual(withCalls.choices[0].message.tool_calls, [
    { id: 'c1', type: 'function', function: { name: 'a', arguments: '{}' } },
  ]);
  const nothingCarried = completionFor({ tool_calls: ['junk'] }, 'r2');
  assert.equal(nothingCarried.choices[0].message.tool_calls, undefined);
  assert.equal(completionFor({ text: 'hi' }, 'r3').choices[0].message.content, 'hi');
});

test('the script is consumed in order, then answers the fallback', () => {
  const script = new ModelScript([{ text: 'one' }]);
  assert.deepEqual(script.take(), { text: 'one' });
  assert.deepEqual(script.take(), FALLBACK_REPLY);
});

test('scripted returns play in order and the last one repeats', () => {
  const returns = [{ output: 1 }, { fail: 'down' }];
  assert.deepEqual(scriptedReturn(returns, 0), { output: 1 });
  assert.deepEqual(scriptedReturn(returns, 5), { fail: 'down' });
  assert.deepEqual(scriptedReturn(undefined, 0), { output: { ok: true } });
});
