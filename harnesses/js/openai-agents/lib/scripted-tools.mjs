// The scenario's tools as the SDK's own function tools (`tool()`): the declared input
// schema is handed to the SDK as it is (non-strict), a gated tool is
// `needsApproval: true`, and the body plays the scripted returns. A `fail` return
// throws, and the SDK decides what the model is told.

import { tool } from '@openai/agents';

/**
 * @typedef {object} SideEffect
 * @property {string} tool
 * @property {unknown} input
 * @property {string | null} tool_call_id
 */

/**
 * What happened inside the bodies: one entry per body that really ran, in order, and
 * the invocation count of each tool (which scripted return plays next). It belongs to
 * the scripted world, not to the runtime: it survives a restart.
 */
export class ToolLog {
  constructor() {
    /** @type {SideEffect[]} */
    this.effects = [];
    /** @type {Map<string, number>} */
    this.invocations = new Map();
  }
}

/** An error a scripted body throws for a `fail` return. */
export class ScriptedToolFailure extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ScriptedToolFailure';
  }
}

/**
 * The scripted return of the n-th invocation (the last one repeats).
 * @param {unknown[] | undefined} returns
 * @param {number} n
 * @returns {Record<string, unknown>}
 */
export function scriptedReturn(returns, n) {
  const list = Array.isArray(returns) && returns.length > 0 ? returns : [{ output: { ok: true } }];
  const entry = list[Math.min(n, list.length - 1)];
  return entry !== null && typeof entry === 'object' ? /** @type {any} */ (entry) : {};
}

/**
 * Every scenario tool as an SDK function tool.
 * @param {Record<string, any>[]} specs   the scenario's `tools`
 * @param {ToolLog} log
 */
export function scriptedTools(specs, log) {
  return specs.map((spec) =>
    tool({
      name: spec.name,
      description: `Scripted tool ${spec.name}.`,
      strict: false,
      parameters: /** @type {any} */ (spec.input_schema ?? { type: 'object' }),
      needsApproval: spec.gate === true,
      execute: async (input, _context, details) => {
        const n = log.invocations.get(spec.name) ?? 0;
        log.invocations.set(spec.name, n + 1);
        const callId = details?.toolCall?.callId;
        log.effects.push({
          tool: spec.name,
          input: structuredClone(input),
          tool_call_id: typeof callId === 'string' ? callId : null,
        });
        const scripted = scriptedReturn(spec.returns, n);
        if (typeof scripted.fail === 'string') throw new ScriptedToolFailure(scripted.fail);
        return structuredClone(scripted.output ?? null);
      },
    }),
  );
}
