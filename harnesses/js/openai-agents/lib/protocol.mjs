// rttool-adapter/1: the handshake, and one reply for each request. Scenarios run in
// sessions of their own, each a fresh ScenarioWorld.

import { ScenarioWorld, refused } from './scenario-world.mjs';

export const PROTOCOL = 'rttool-adapter/1';
export const SDK_VERSION = '0.20.0';

/** The handshake: what the SDK is claimed to do, and what this harness can do to it. */
export function handshake() {
  return {
    protocol: PROTOCOL,
    implementation: {
      name: 'openai-agents-js',
      version: SDK_VERSION,
      homepage: 'https://openai.github.io/openai-agents-js/',
    },
    profiles: ['runtime'],
    // The SDK has no artifact channel: a tool's output reaches the model whole, and no
    // message carries artifacts (RT-TOOL-5 ¶1).
    collects_artifacts: false,
    capabilities: {
      restart: true,
      gates: true,
    },
    limits: {},
  };
}

/**
 * Why a scenario cannot be played on the SDK, or null when it can.
 * @param {Record<string, any>} scenario
 * @returns {{capability: string, message: string} | null}
 */
export function unsupportedReason(scenario) {
  const replies = Array.isArray(scenario.model) ? scenario.model : [];
  if (replies.some((reply) => reply !== null && typeof reply === 'object' && 'question' in reply)) {
    return {
      capability: 'question',
      message:
        'the Agents SDK has no way for a model to pause a run on a question to the user; ' +
        'its only run interruption is a tool approval',
    };
  }
  if ((scenario.steps ?? []).some((/** @type {any} */ step) => step?.op === 'poll')) {
    return { capability: 'poll', message: 'the Agents SDK has no message poll' };
  }
  return null;
}

/** A request the harness cannot handle at all. */
export class RequestError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** The sessions of one harness process, and the reply to each request. */
export class Dispatcher {
  constructor() {
    /** @type {Map<string, ScenarioWorld>} */
    this.worlds = new Map();
    this.sessionCount = 0;
  }

  /**
   * @param {Record<string, any>} request
   * @returns {Promise<Record<string, unknown>>}
   */
  async reply(request) {
    try {
      return await this.#answer(request);
    } catch (err) {
      const code = err instanceof RequestError ? err.code : 'harness_error';
      const message = err instanceof Error ? err.message : String(err);
      return { error: { code, message: message.slice(0, 2000) } };
    }
  }

  /** @param {Record<string, any>} request */
  async #answer(request) {
    switch (request?.cmd) {
      case 'hello':
        return handshake();
      case 'start':
        return this.#start(request.scenario);
      case 'step':
        return this.#step(request);
      case 'finish':
        this.worlds.delete(request.session);
        return {};
      case 'bye':
        return {};
      default:
        throw new RequestError('unknown_command', `unknown cmd ${JSON.stringify(request?.cmd)}`);
    }
  }

  /** @param {Record<string, any>} scenario */
  #start(scenario) {
    if (scenario === null || typeof scenario !== 'object' || !Array.isArray(scenario.steps)) {
      throw new RequestError('bad_scenario', 'start: scenario.steps is missing');
    }
    const reason = unsupportedReason(scenario);
    if (reason !== null) return { unsupported: reason };
    this.sessionCount += 1;
    const session = `s-${this.sessionCount}`;
    this.worlds.set(session, new ScenarioWorld(scenario));
    return { session };
  }

  /** @param {Record<string, any>} request */
  async #step(request) {
    const world = this.worlds.get(request.session);
    if (world === undefined) {
      throw new RequestError('unknown_session', `unknown session ${String(request.session)}`);
    }
    const step = world.scenario.steps[request.index];
    if (step === undefined) {
      throw new RequestError('unknown_step', `scenario has no step ${String(request.index)}`);
    }
    const done = await performStep(world, step);
    return {
      index: request.index,
      op: step.op,
      ...done,
      warnings: [],
      wire: world.wire(),
    };
  }
}

/**
 * @param {ScenarioWorld} world
 * @param {Record<string, any>} step
 */
async function performStep(world, step) {
  switch (step.op) {
    case 'start_turn':
      return world.startTurn(step);
    case 'approve':
      return world.decide(step, 'approve');
    case 'decline':
      return world.decide(step, 'decline');
    case 'restart':
      return world.restart();
    case 'wait':
      // The SDK continues nothing on its own.
      return { outcome: 'ok', runs: [] };
    case 'answer':
      return { ...refused('not_paused', `turn ${step.turn} waits for no answer`), runs: [] };
    case 'continue':
      return { ...refused('not_stopped', `turn ${step.turn} is not stopped`), runs: [] };
    case 'stop':
      return { ...refused('not_running', `turn ${step.turn} is not running`), runs: [] };
    default:
      throw new RequestError('unsupported_step', `step op ${String(step.op)} is not offered`);
  }
}
