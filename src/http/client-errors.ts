import http from 'node:http';
import type { Socket } from 'node:net';

/**
 * Requests Node's parser refuses before Fastify sees them (a raw non-ASCII byte in the URL, a malformed
 * header, a timeout) get our error shape and a hint, not Fastify's `{"message":"Client Error"}`.
 */
function describe(err: NodeJS.ErrnoException & { bytesParsed?: number }): [number, string, string] {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'request_timeout', 'The request was not received in time; send the headers and body without pauses'];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'headers_too_large', 'The request headers are larger than the server accepts'];
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_METHOD':
      return [400, 'invalid_request', 'The request line is malformed: percent-encode the URL (non-ASCII characters and spaces in a query string must be sent as %XX; curl -G --data-urlencode "q=..." does it)'];
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return [400, 'invalid_request', 'A request header is malformed (header names may not contain spaces or other separators)'];
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return [400, 'invalid_request', 'Content-Length is malformed or conflicts with Transfer-Encoding'];
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return [400, 'invalid_request', 'The chunked request body is malformed'];
    default:
      return [400, 'invalid_request', `The HTTP request is malformed (${err.code ?? 'parse error'}); percent-encode the URL and check the headers`];
  }
}

export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = describe(err);
  const body = JSON.stringify({ success: false, error: message, code });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` + `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}
