import { describe, expect, it } from 'vitest';
import { ApiError } from './client';
import { shouldRetry } from './queryClient';

const err = (status: number) => new ApiError(status, `status ${status}`);

describe('which failed reads are asked again', () => {
  it('asks again twice after a server error or a busy answer (429, 503), then gives up', () => {
    for (const status of [429, 500, 503]) {
      expect(shouldRetry(0, err(status))).toBe(true);
      expect(shouldRetry(1, err(status))).toBe(true);
      expect(shouldRetry(2, err(status))).toBe(false);
    }
  });
  it('never asks again after an answer (400, 401, 403, 404, 410)', () => {
    for (const status of [400, 401, 403, 404, 410]) expect(shouldRetry(0, err(status))).toBe(false);
  });
});
