// One scenario's world: the SDK runtime (an Agent, a Runner, one session per
// conversation), the storage it persists to (each session's items and each paused
// run's serialized RunState), and the harness's turn bookkeeping. The SDK has no
// turns: a turn is the user message that started it and the runs that continued it.

import { Agent, MemorySession, RunState, Runner } from '@openai/agents';

import { ModelScript, scriptedModel } from './scripted-model.mjs';
import { ToolLog, scriptedTools } from './scripted-tools.mjs';
import { pausedPass, runRecord } from './run-record.mjs';

const AGENT_NAME = 'rttool-agent';

/**
 * What a step did: the `outcome` and, for one other than `ok`, why.
 * @typedef {{outcome: 'ok'} | {outcome: 'refused' | 'failed', error: {code: string, message: string}}} StepOutcome
 */

/**
 * A turn as the storage keeps it (plain data, so that it survives a restart).
 * @typedef {object} StoredTurn
 * @property {string} label
 * @property {string} conversation
 * @property {'completed' | 'paused' | 'failed'} status
 * @property {number[]} itemIndices   positions in the conversation's items it wrote
 * @property {string | null} pendingState   the paused run's `RunState`, serialized
 * @property {string | null} unsavedReason   why the paused run could not be serialized
 * @property {import('./run-record.mjs').PendingPass | null} pendingPass
 * @property {unknown[] | null} pending   the approvals it waits for, as the SDK lists them
 * @property {string[]} declined   call ids the operator declined
 */

/**
 * A step whose run the SDK failed is reported `failed`, with the SDK's error.
 * @param {unknown} failure
 * @returns {StepOutcome}
 */
function outcomeOf(failure) {
  if (failure === null) return { outcome: 'ok' };
  const code = failure instanceof Error ? failure.constructor.name : 'error';
  const message = failure instanceof Error ? failure.message : String(failure);
  return { outcome: 'failed', error: { code, message: message.slice(0, 2000) } };
}

/** @param {string} code @param {string} message @returns {StepOutcome} */
const refused = (code, message) => ({ outcome: 'refused', error: { code, message } });

export class ScenarioWorld {
  /** @param {Record<string, any>} scenario */
  constructor(scenario) {
    this.scenario = scenario;
    this.script = new ModelScript(Array.isArray(scenario.model) ? scenario.model : []);
    this.toolLog = new ToolLog();
    this.toolNames = new Set((scenario.tools ?? []).map((/** @type {any} */ t) => t.name));
    /** @type {Map<string, Record<string, any>[]>} the storage: conversation -> items */
    this.storedItems = new Map();
    /** @type {Map<string, StoredTurn>} the storage: turn label -> turn */
    this.turns = new Map();
    this.runCount = 0;
    this.boot();
  }

  /** Build the runtime from the storage: what a process start (or restart) does. */
  boot() {
    this.agent = new Agent({
      name: AGENT_NAME,
      model: scriptedModel(this.script),
      tools: scriptedTools(this.scenario.tools ?? [], this.toolLog),
    });
    this.runner = new Runner({
      toolNotFoundBehavior: 'return_error_to_model',
      tracingDisabled: true,
    });
    /** @type {Map<string, MemorySession>} */
    this.sessions = new Map();
    // Paused runs whose RunState the SDK could not serialize: they live only as long
    // as the process does.
    /** @type {Map<string, RunState<any, any>>} */
    this.unsavedStates = new Map();
    for (const [conversation, items] of this.storedItems) {
      this.sessions.set(conversation, new MemorySession({ initialItems: structuredClone(items) }));
    }
  }

  /** @param {string} conversation */
  sessionOf(conversation) {
    let session = this.sessions.get(conversation);
    if (session === undefined) {
      session = new MemorySession();
      this.sessions.set(conversation, session);
      this.storedItems.set(conversation, []);
    }
    return session;
  }

  /** The restart step: drop every live object, and build the runtime again from storage. */
  restart() {
    this.boot();
    return { outcome: /** @type {const} */ ('ok'), runs: [] };
  }

  /**
   * Run the agent once on a turn, and report the run.
   * @param {StoredTurn} turn
   * @param {string | RunState<any, any>} input
   * @param {string} cause
   */
  async runOnce(turn, input, cause) {
    const session = this.sessionOf(turn.conversation);
    const itemsBefore = (await session.getItems()).length;
    const callsBefore = this.script.calls.length;
    const effectsBefore = this.toolLog.effects.length;
    const resumedPass = typeof input === 'string' ? null : turn.pendingPass;
    /** @type {any} */
    let result = null;
    /** @type {unknown} */
    let failure = null;
    try {
      result = await this.runner.run(this.agent, /** @type {any} */ (input), { session });
    } catch (err) {
      failure = err;
    }
    const items = await session.getItems();
    this.storedItems.set(turn.conversation, structuredClone(items));
    for (let i = itemsBefore; i < items.length; i += 1) turn.itemIndices.push(i);
    const modelCalls = this.script.calls.slice(callsBefore);
    const interruptions = result?.interruptions ?? [];
    const end = failure !== null ? 'failed' : interruptions.length > 0 ? 'paused' : 'completed';
    turn.status = end;
    turn.pendingState = null;
    turn.unsavedReason = null;
    this.unsavedStates.delete(turn.label);
    if (end === 'paused') {
      try {
        turn.pendingState = result.state.toString();
      } catch (err) {
        turn.unsavedReason = err instanceof Error ? err.message.slice(0, 500) : String(err);
        this.unsavedStates.set(turn.label, result.state);
      }
    }
    turn.pendingPass = end === 'paused' ? pausedPass(modelCalls, resumedPass) : null;
    turn.pending = end === 'paused' ? interruptions.map((/** @type {any} */ i) => i.rawItem) : null;
    this.runCount += 1;
    const run = runRecord({
      id: `run-${this.runCount}`,
      turn: turn.label,
      conversation: turn.conversation,
      cause,
      end,
      modelCalls,
      newItems: items.slice(itemsBefore),
      effects: this.toolLog.effects.slice(effectsBefore),
      resumedPass,
      toolNames: this.toolNames,
      declined: new Set(turn.declined),
    });
    return { run, failure };
  }

  /** @param {Record<string, any>} step */
  async startTurn(step) {
    const label = step.turn;
    if (this.turns.has(label)) {
      return { ...refused('turn_exists', `turn ${label} was already started`), runs: [] };
    }
    /** @type {StoredTurn} */
    const turn = {
      label,
      conversation: step.conversation ?? 'main',
      status: 'completed',
      itemIndices: [],
      pendingState: null,
      unsavedReason: null,
      pendingPass: null,
      pending: null,
      declined: [],
    };
    this.turns.set(label, turn);
    const { run, failure } = await this.runOnce(turn, step.message ?? 'Hello', 'start');
    return { ...outcomeOf(failure), runs: [run] };
  }

  /**
   * Approve or decline the first approval still waiting, in batch order.
   * @param {Record<string, any>} step
   * @param {'approve' | 'decline'} decision
   */
  async decide(step, decision) {
    const turn = this.turns.get(step.turn);
    if (turn === undefined) return { ...refused('unknown_turn', `no turn ${step.turn}`), runs: [] };
    if (turn.status !== 'paused') {
      return { ...refused('not_paused', `turn ${step.turn} is not paused`), runs: [] };
    }
    const state =
      turn.pendingState !== null
        ? await RunState.fromString(this.agent, turn.pendingState)
        : this.unsavedStates.get(turn.label);
    if (state === undefined) {
      const why = `the paused run was not persisted (the SDK could not serialize it: ${turn.unsavedReason})`;
      return { outcome: /** @type {const} */ ('failed'), error: { code: 'state_lost', message: why }, runs: [] };
    }
    const [first] = state.getInterruptions();
    if (first === undefined) {
      return { ...refused('not_paused', `turn ${step.turn} waits for no decision`), runs: [] };
    }
    if (decision === 'approve') {
      state.approve(first);
    } else {
      state.reject(first, { message: step.reason ?? 'declined by the operator' });
      const callId = /** @type {any} */ (first.rawItem).callId;
      if (typeof callId === 'string') turn.declined.push(callId);
    }
    const { run, failure } = await this.runOnce(turn, state, decision);
    return { ...outcomeOf(failure), runs: [run] };
  }

  /** The wire: every turn of the scenario so far, by conversation. */
  wire() {
    /** @type {Record<string, Record<string, unknown>>} */
    const wire = {};
    for (const turn of this.turns.values()) {
      const items = this.storedItems.get(turn.conversation) ?? [];
      wire[turn.conversation] ??= {};
      wire[turn.conversation][turn.label] = {
        status: turn.status,
        continueOffered: false,
        pending: turn.pending,
        messages: turn.itemIndices.map((i) => items[i]),
        toolArtifacts: null,
      };
    }
    return wire;
  }
}

export { refused };
