import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType, ValidationError } from '../../errors';
import { inspectJson, isJson, MAX_JSON_DEPTH } from '../json';
import { header } from '../request';

export const MAX_BODY_BYTES = 64 * 1024;
const JSON_CONTENT_TYPE = /^application\/json\s*(;.*)?$/i;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A `charset` parameter of a content type, lower-cased, or undefined. */
function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType)?.[1]?.toLowerCase();
}

/**
 * 413 / 415 / 400 for a body before it is parsed. Routes that take no body still refuse an
 * oversized or non-JSON one (docs/api.md, "Request conventions"); an empty or JSON body is ignored there.
 * A charset other than UTF-8 is a 415. A body API Gateway passes base64-encoded (bytes
 * that are not text) is decoded strictly where the route reads it: bytes that are not
 * UTF-8 are a 400, never text with replacement characters in it.
 */
export function bodyGuard(required: boolean): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === null || body === undefined || body === '') {
        if (required) throw new BadRequest('A JSON request body is required');
        return;
      }
      if (Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8') > MAX_BODY_BYTES) {
        throw new PayloadTooLarge(`The request body is larger than ${MAX_BODY_BYTES} bytes`);
      }
      const contentType = header(request.event, 'content-type');
      if (!contentType || !JSON_CONTENT_TYPE.test(contentType)) {
        throw new UnsupportedMediaType('The request body must be application/json');
      }
      const charset = charsetOf(contentType);
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
        throw new UnsupportedMediaType('The request body must be UTF-8 (charset=utf-8 or no charset)');
      }
      // A route that takes no body never reads it: its bytes are not decoded.
      if (isBase64Encoded && required) {
        try {
          request.event.body = STRICT_UTF8.decode(Buffer.from(body, 'base64'));
        } catch {
          throw new BadRequest('The request body is not valid UTF-8');
        }
        request.event.isBase64Encoded = false;
      }
    },
  };
}

/**
 * The rules JSON.parse does not keep (lib/http/json): nesting depth, reserved keys and
 * duplicate keys, checked on the text before it is parsed. Text that is not JSON is left
 * to the parser's 400.
 */
export function jsonGuard(): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: (request) => {
      const { body } = request.event;
      if (typeof body !== 'string') return;
      const finding = inspectJson(body);
      if (finding?.kind === 'too-deep') throw new BadRequest(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
      if (finding && isJson(body)) throw ValidationError.of(finding.field, finding.message);
    },
  };
}
