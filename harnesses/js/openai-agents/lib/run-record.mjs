// Building a protocol `run` record from what one `Runner.run` left behind: the model
// calls it made, the items it persisted to the conversation's session, and the bodies
// that ran. Nothing here decides behaviour; it only reads what the SDK did.

import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { carriedCalls } from './scripted-model.mjs';

// The SDK's own converter from its items to Chat Completions messages, the one its
// Chat Completions model uses: a pass's tool messages are reported as the model is fed
// them. The package exports only its index, so the pinned file is imported by path.
const requireFromHere = createRequire(import.meta.url);
const converterUrl = pathToFileURL(
  path.join(
    path.dirname(requireFromHere.resolve('@openai/agents-openai')),
    'openaiChatCompletionsConverter.mjs',
  ),
).href;
const { itemsToMessages } = await import(converterUrl);

/**
 * @typedef {object} PendingPass   a pass a run paused in, to be resumed by a later run
 * @property {unknown} batch   the scripted `tool_calls`, whole
 */

/**
 * @typedef {object} RunFacts
 * @property {string} id
 * @property {string} turn
 * @property {string} conversation
 * @property {string} cause
 * @property {'completed' | 'paused' | 'failed'} end
 * @property {{messages: unknown[], reply: Record<string, unknown>}[]} modelCalls
 * @property {Record<string, any>[]} newItems   session items the run persisted
 * @property {import('./scripted-tools.mjs').SideEffect[]} effects
 * @property {PendingPass | null} resumedPass   the paused pass this run resumes
 * @property {Set<string>} toolNames   the names of the wired tools
 * @property {Set<string>} declined   call ids the operator declined
 */

/**
 * The disposition of one answered call, read from what ran.
 * @param {Record<string, any>} output   a `function_call_result` item
 * @param {import('./scripted-tools.mjs').SideEffect[]} unclaimedEffects
 * @param {RunFacts} facts
 */
function dispositionOf(output, unclaimedEffects, facts) {
  const at = unclaimedEffects.findIndex(
    (effect) => effect.tool === output.name && effect.tool_call_id === (output.callId ?? null),
  );
  if (at >= 0) {
    const [effect] = unclaimedEffects.splice(at, 1);
    return { disposition: 'executed', arguments: effect.input };
  }
  if (!facts.toolNames.has(output.name)) return { disposition: 'unknown_tool' };
  if (facts.declined.has(output.callId)) return { disposition: 'declined' };
  // The body did not run and nobody declined it: the SDK answered the call without
  // invoking it (its arguments did not parse).
  return { disposition: 'invalid' };
}

/**
 * One pass: the batch, and every result the run persisted for its calls, in batch order.
 * @param {unknown} batch
 * @param {Record<string, any>[]} outputs   unassigned outputs; matched ones are removed
 * @param {import('./scripted-tools.mjs').SideEffect[]} unclaimedEffects
 * @param {RunFacts} facts
 */
function passFor(batch, outputs, unclaimedEffects, facts) {
  /** @type {Record<string, unknown>[]} */
  const results = [];
  /** @type {Record<string, any>[]} */
  const answered = [];
  for (const call of carriedCalls(batch)) {
    const at = outputs.findIndex((item) => item.callId === call.id && item.name === call.name);
    if (at < 0) continue;
    const [output] = outputs.splice(at, 1);
    answered.push(output);
    const { disposition, arguments: args } = dispositionOf(output, unclaimedEffects, facts);
    /** @type {Record<string, unknown>} */
    const entry = {
      tool: call.name,
      tool_call_id: call.id ?? null,
      disposition,
      result: output,
    };
    if (args !== undefined) entry.arguments = args;
    results.push(entry);
  }
  return {
    batch: structuredClone(batch),
    ports: {},
    exposed: {},
    results,
    tool_messages: answered.length > 0 ? itemsToMessages(answered) : [],
    outcome: null,
    paused: false,
    cut: false,
  };
}

/**
 * The protocol `run` record.
 * @param {RunFacts} facts
 */
export function runRecord(facts) {
  const outputs = facts.newItems.filter((item) => item?.type === 'function_call_result');
  const unclaimedEffects = [...facts.effects];
  /** @type {unknown[]} */
  const batches = [];
  if (facts.resumedPass !== null) batches.push(facts.resumedPass.batch);
  for (const call of facts.modelCalls) {
    if (carriedCalls(call.reply.tool_calls).length > 0) batches.push(call.reply.tool_calls);
  }
  const passes = batches.map((batch) => passFor(batch, outputs, unclaimedEffects, facts));
  if (facts.end === 'paused' && passes.length > 0) passes[passes.length - 1].paused = true;
  return {
    id: facts.id,
    turn: facts.turn,
    conversation: facts.conversation,
    cause: facts.cause,
    end: facts.end,
    model_inputs: facts.modelCalls.map((call) => ({ messages: call.messages })),
    passes,
    side_effects: facts.effects.map((effect) => ({ ...effect })),
  };
}

/**
 * The batch a run paused in: the last model call's that carried any call, or, when the
 * run made none, the batch it resumed.
 * @param {RunFacts['modelCalls']} modelCalls
 * @param {PendingPass | null} resumedPass
 * @returns {PendingPass | null}
 */
export function pausedPass(modelCalls, resumedPass) {
  for (let i = modelCalls.length - 1; i >= 0; i -= 1) {
    const batch = modelCalls[i].reply.tool_calls;
    if (carriedCalls(batch).length > 0) return { batch };
  }
  return resumedPass;
}
