import type { CDPSession } from 'playwright-core';

/** Chromium's slow 4G: 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up (bytes per second). */
export const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };

/** One response as the browser received it: its encoded size on the wire, headers included. */
export interface Wire { url: string; encoding: string | undefined; mime: string; bytes: number }

/**
 * Records every response of the CDP session's page as it arrives (`npm run size` and
 * web/e2e/public-load.spec.ts); with `weak`, the page is a weak phone: slow 4G and a 4x slower CPU.
 */
export async function recordWire(cdp: Pick<CDPSession, 'on' | 'send'>, opts: { weak: boolean; noCache?: boolean }): Promise<Wire[]> {
  const heard = new Map<string, Omit<Wire, 'bytes'>>();
  const wire: Wire[] = [];
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const encoding = Object.entries(response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1];
    heard.set(requestId, { url: response.url, encoding: encoding == null ? undefined : String(encoding), mime: response.mimeType });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const r = heard.get(requestId);
    if (r) wire.push({ ...r, bytes: encodedDataLength });
  });
  await cdp.send('Network.enable');
  if (opts.noCache) await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (opts.weak) {
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  return wire;
}
