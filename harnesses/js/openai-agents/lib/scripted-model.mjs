// The scripted model: the scenario's model replies played through the SDK's own
// Chat Completions model (`OpenAIChatCompletionsModel`), whose client is replaced by one
// that answers from the script instead of the network. Everything between the script
// and the tools (message building, tool-call parsing, dispatch) is the SDK's own code,
// and the messages the client receives are the model input as the SDK built it.

import { OpenAIChatCompletionsModel } from '@openai/agents';

/** The text the model answers once the script has run out. */
export const FALLBACK_REPLY = Object.freeze({ text: 'Done.' });

/**
 * @typedef {object} CarriedCall
 * @property {number} position   index of the call in the scripted batch
 * @property {string} name
 * @property {string | undefined} id   undefined when the scripted call has none
 * @property {string} argumentsText   the JSON text the model sends as `arguments`
 */

/**
 * Which calls of a scripted batch the Chat Completions interface can carry, and how.
 * A call must be a map with a string name; its id, when present, a string (null
 * counts as absent). `args` is encoded as the JSON text the model would send; a
 * missing `args` and `"args": []` both mean no arguments, sent as `{}`. Nothing is
 * turned into a call it was not: what cannot be carried is left out.
 * @param {unknown} batch
 * @returns {CarriedCall[]}
 */
export function carriedCalls(batch) {
  if (!Array.isArray(batch)) return [];
  /** @type {CarriedCall[]} */
  const carried = [];
  batch.forEach((call, position) => {
    if (call === null || typeof call !== 'object' || Array.isArray(call)) return;
    const { name, tool_call_id: rawId } = /** @type {Record<string, unknown>} */ (call);
    if (typeof name !== 'string') return;
    if (rawId !== undefined && rawId !== null && typeof rawId !== 'string') return;
    const args = /** @type {Record<string, unknown>} */ (call).args;
    const noArguments = args === undefined || (Array.isArray(args) && args.length === 0);
    carried.push({
      position,
      name,
      id: typeof rawId === 'string' ? rawId : undefined,
      argumentsText: noArguments ? '{}' : JSON.stringify(args),
    });
  });
  return carried;
}

/**
 * One scripted reply as the Chat Completions response a provider would return.
 * @param {Record<string, unknown>} reply
 * @param {string} responseId
 */
export function completionFor(reply, responseId) {
  const calls = carriedCalls(reply.tool_calls);
  /** @type {Record<string, unknown>} */
  const message = {
    role: 'assistant',
    content: typeof reply.text === 'string' ? reply.text : null,
  };
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.argumentsText },
    }));
  }
  return {
    id: responseId,
    object: 'chat.completion',
    created: 0,
    model: 'scripted',
    choices: [
      {
        index: 0,
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        message,
      },
    ],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/**
 * @typedef {object} ModelCall
 * @property {unknown[]} messages   the chat messages the SDK sent
 * @property {Record<string, unknown>} reply   the scripted reply played
 */

/**
 * The script's cursor and the record of every model call, shared by every
 * conversation of one scenario (replies are consumed across the whole scenario).
 * A cursor belongs to the scripted world, not to the runtime: it survives a restart.
 */
export class ModelScript {
  /** @param {unknown[]} replies */
  constructor(replies) {
    /** @type {Record<string, unknown>[]} */
    this.replies = replies.map((reply) =>
      reply !== null && typeof reply === 'object' ? /** @type {any} */ (reply) : {},
    );
    this.next = 0;
    /** @type {ModelCall[]} */
    this.calls = [];
  }

  /** @returns {Record<string, unknown>} */
  take() {
    const reply = this.next < this.replies.length ? this.replies[this.next] : FALLBACK_REPLY;
    this.next += 1;
    return reply;
  }
}

/**
 * A Chat Completions client that answers from the script.
 * @param {ModelScript} script
 */
function scriptedClient(script) {
  return {
    baseURL: 'scripted://model',
    chat: {
      completions: {
        /** @param {{messages: unknown[]}} params */
        create: async (params) => {
          const messages = JSON.parse(JSON.stringify(params.messages));
          const reply = script.take();
          script.calls.push({ messages, reply });
          return completionFor(reply, `resp-${script.calls.length}`);
        },
      },
    },
  };
}

/**
 * The SDK's Chat Completions model over the scripted client.
 * @param {ModelScript} script
 */
export function scriptedModel(script) {
  return new OpenAIChatCompletionsModel(/** @type {any} */ (scriptedClient(script)), 'scripted');
}
