/**
 * Request checks the system options switch on (off by default: then nothing is scanned): the
 * sensitive-word check of the prompt and of whole answers, and new-api's upload/download role
 * thresholds. Streams are guarded where they pass (relay.service / converted-attempts).
 */
import {
  completionTextOfJson,
  type JsonObject,
  promptTexts,
  type RelayError,
  uploadsOf,
} from '@tollgate/relay';
import type { Prepared, RelayCall } from './relay-call';
import { relayError } from './relay-http';
import type { RelaySettings } from './relay-settings';

/** A refusal before anything is reserved or relayed, or undefined. */
export function refusedByOptions(
  call: RelayCall,
  settings: RelaySettings,
  hub: JsonObject | undefined,
  multipart: boolean,
): RelayError | undefined {
  const endpoint = call.ingress ? 'chat' : call.endpoint;
  const matcher = settings.sensitive.prompt;
  if (matcher && hub) {
    for (const text of promptTexts(endpoint, hub)) {
      if (matcher.first(text) !== undefined) {
        return relayError({
          lang: call.lang,
          status: 400,
          key: 'relay.sensitive_prompt',
          type: 'invalid_request_error',
          code: 'sensitive_words_detected',
        });
      }
    }
  }
  const role = call.caller.user.role;
  const perms = settings.permissions;
  const lang = call.lang;
  if (role < perms.imageDownload && endpoint === 'imagesGenerations') {
    return forbid(lang, 'relay.forbidden_image_download');
  }
  if (role < perms.fileDownload && endpoint === 'audioSpeech') {
    return forbid(lang, 'relay.forbidden_file_download');
  }
  if (role < perms.fileUpload && multipart) return forbid(lang, 'relay.forbidden_file_upload');
  if (hub && (role < perms.imageUpload || role < perms.fileUpload)) {
    const uploads = uploadsOf(endpoint, hub);
    if (uploads.images && role < perms.imageUpload) {
      return forbid(lang, 'relay.forbidden_image_upload');
    }
    if (uploads.files && role < perms.fileUpload) {
      return forbid(lang, 'relay.forbidden_file_upload');
    }
  }
  return undefined;
}

/** new-api's 403 for a role under a permission threshold. */
function forbid(lang: RelayCall['lang'], code: string): RelayError {
  return relayError({
    lang,
    status: 403,
    key: code,
    type: 'permission_error',
    code: 'insufficient_permission',
  });
}

/**
 * A whole (non-stream) answer whose text holds a sensitive word is not delivered: the client gets
 * new-api's 400 `sensitive_words_detected` instead; the work is still billed (as new-api did).
 */
export function sensitiveAnswer(
  p: Prepared,
  answer: JsonObject | undefined,
): RelayError | undefined {
  const matcher = p.settings.sensitive.output;
  if (!matcher || !answer) return undefined;
  const words = matcher.all(completionTextOfJson(answer));
  if (words.length === 0) return undefined;
  return relayError({
    lang: p.call.lang,
    status: 400,
    key: 'relay.sensitive_response',
    params: { words: words.join(', ') },
    type: 'invalid_request_error',
    code: 'sensitive_words_detected',
  });
}
