/**
 * A relay call read and checked before anything is reserved: its body parsed (or converted from
 * the client's protocol to the OpenAI hub), its model allowed and priced for the payer's group, a
 * channel serving it, the options' checks passed. Pure but for the call's trace (the model named).
 */
import { modelMaxOutput, type PriceQuote, quotePrice, withFields } from '@tollgate/domain';
import {
  estimatePromptTokens,
  ingressCodec,
  type JsonObject,
  multipartBoundary,
  parseJsonObject,
  readMultipartField,
  RelayError,
  requestFacts,
  type RequestFacts,
} from '@tollgate/relay';
import type { Lang } from '../shared/i18n/messages';
import { type ClientWire, openAiClient } from './client-wire';
import type { RelayCall, Unreserved } from './relay-call';
import { relayError } from './relay-http';
import { refusedByOptions } from './relay-option-checks';
import type { RoutingTablePort } from './relay-ports';
import { groupFor, modelRefusal, routeRefusal } from './relay-routing';
import type { RelaySettings } from './relay-settings';

/** The call ready to reserve, or the refusal the client is sent. */
export function prepareRequest(
  call: RelayCall,
  settings: RelaySettings,
  wire: ClientWire,
  routing: RoutingTablePort,
): Unreserved | RelayError {
  const { lang } = call;
  let body: JsonObject | undefined;
  let hub: JsonObject | undefined;
  let client = wire;
  let boundary: string | undefined;
  let facts: RequestFacts;
  if (call.ingress) {
    body = parseJsonObject(call.raw);
    if (!body) return badBody(lang);
    const converted = ingressCodec(call.ingress)?.toOpenAi(body, {
      model: call.modelFromPath,
      stream: call.streamFromPath,
    });
    if (converted === undefined) return badBody(lang);
    if (typeof converted === 'string') {
      return new RelayError(400, converted, 'invalid_request_error', 'invalid_request');
    }
    hub = converted;
    facts = requestFacts('chat', hub);
  } else if (call.endpoint === 'audioTranscriptions' || call.endpoint === 'audioTranslations') {
    boundary = multipartBoundary(call.contentType);
    if (!boundary) return badBody(lang);
    const model = readMultipartField(call.raw, boundary, 'model')?.trim() || 'whisper-1';
    facts = { model, stream: false, maxTokens: undefined, n: 1, choices: 1 };
  } else {
    body = parseJsonObject(call.raw);
    if (!body) return badBody(lang);
    facts = requestFacts(call.endpoint, body);
    if (call.modelFromPath) facts = withFields(facts, { model: call.modelFromPath });
    hub = body;
    if (call.playground && 'group' in body) {
      const { group: _group, ...rest } = body;
      hub = rest;
    }
    if (facts.stream) client = openAiClient(includesUsage(body));
  }
  const model = facts.model;
  if (model === '') {
    return relayError({
      lang,
      status: 400,
      key: 'relay.model_missing',
      type: 'invalid_request_error',
      code: 'model_missing',
    });
  }
  call.trace.model = model;
  const group = groupFor(call.caller, requestedGroup(call, body), settings);
  const quote = admittedQuote(call, settings, routing, model, group);
  if (quote instanceof RelayError) return quote;
  const refused = refusedByOptions(call, settings, hub, boundary !== undefined);
  if (refused) return refused;
  const endpoint = call.ingress ? 'chat' : call.endpoint;
  const bounded = endpoint === 'chat' || endpoint === 'completions' || endpoint === 'responses';
  return {
    call,
    settings,
    facts,
    body,
    hub,
    client,
    boundary,
    group,
    quote,
    promptEstimate: hub ? estimatePromptTokens(endpoint, hub) : 0,
    choices: facts.choices,
    askedCeiling: bounded
      ? (facts.maxTokens ?? modelMaxOutput(settings.maxOutput, model))
      : undefined,
    chain: [],
  };
}

/** The group the caller asks for: the playground's `group` member, else the token's. */
function requestedGroup(call: RelayCall, body: JsonObject | undefined): string {
  if (!call.playground) return call.caller.token?.group ?? '';
  return typeof body?.group === 'string' ? body.group : '';
}

/** The model's price in `group`, once the token may use the model and a channel serves it. */
function admittedQuote(
  call: RelayCall,
  settings: RelaySettings,
  routing: RoutingTablePort,
  model: string,
  group: string,
): PriceQuote | RelayError {
  const { lang, caller } = call;
  const notAllowed = modelRefusal(lang, caller.token, model);
  if (notAllowed) return notAllowed;
  const quoted = quotePrice(settings.price, model, group);
  if (!quoted.ok) {
    return relayError({
      lang,
      status: 403,
      key: 'relay.price_not_configured',
      params: { model },
      type: 'permission_error',
      code: 'model_price_error',
    });
  }
  return routeRefusal(routing, lang, caller, group, model) ?? quoted.quote;
}

function badBody(lang: Lang): RelayError {
  return relayError({
    lang,
    status: 400,
    key: 'relay.invalid_body',
    type: 'invalid_request_error',
    code: 'invalid_request',
  });
}

/** Whether an OpenAI stream request asked for the usage chunk (stream_options.include_usage). */
function includesUsage(body: JsonObject): boolean {
  const options = body.stream_options;
  return (
    typeof options === 'object' &&
    options !== null &&
    (options as JsonObject).include_usage === true
  );
}
