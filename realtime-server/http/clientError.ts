import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser refuses before Koa sees them (headers or URL over the 16 KB
 * limit, malformed request lines or headers) get the same `{error}` JSON as every other
 * refusal instead of Node's bare status line: 431 for oversized headers, 400 otherwise.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex) {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, error] = err.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'Request Header Fields Too Large', 'The request line or headers are too large']
    : [400, 'Bad Request', 'The request is malformed'];
  const body = JSON.stringify({ error });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
    + `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}
