import { createHash, randomBytes } from 'node:crypto';
import type { DeviceIdentityResponse, PositionInput } from '../contract';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { ambulanceService } from './ambulanceService';
import { type Actor, type ServiceContext, inTransaction } from './context';
import { notFound } from './errors';

/** 16 random bytes as 32 hex characters: 128 bits, and only digits and a–f to type into a phone. */
const SECRET_BYTES = 16;

export type DeviceProtocol = 'osmand' | 'owntracks';

/** What is stored and compared: never the secret itself. Ids are compared lower-cased (deviceIdSchema). */
export const deviceHash = (deviceId: string) => createHash('sha256').update(deviceId.trim().toLowerCase()).digest('hex');

/** The set-up steps each app's screen asks for, in its own words. */
function instructions(publicUrl: string, deviceId: string, plate: string): DeviceIdentityResponse['instructions'] {
  return {
    traccar: [
      'Traccar Client (Android or iOS):',
      '1. Install Traccar Client from the app store and open it.',
      `2. Device identifier: ${deviceId}`,
      `3. Server URL: ${publicUrl}/api/devices/osmand`,
      '4. Location accuracy: High. Frequency: 10 seconds (an ambulance moves about 150 m in that time). Distance and Angle: 0.',
      '5. Allow location access all the time, keep battery optimisation off for the app, and switch Service status on.',
      'The device identifier is a password: anyone who has it can move this ambulance on the map. It is shown only now.',
    ].join('\n'),
    owntracks: [
      'OwnTracks (Android or iOS):',
      '1. Install OwnTracks from the app store and open its Preferences (iOS: Settings).',
      '2. Connection mode: HTTP.',
      `3. URL (Host): ${publicUrl}/api/devices/owntracks`,
      `4. Identification: Username: ${plate} (any text will do). Password: ${deviceId}. Authentication on.`,
      '5. Monitoring mode: Move (reports continuously while driving); allow location access all the time.',
      'The password is the device id: anyone who has it can move this ambulance on the map. It is shown only now.',
    ].join('\n'),
  };
}

export const deviceService = {
  /**
   * A new device secret for the ambulance's GPS app or tracker: only its hash is stored, and it
   * replaces any earlier one (whose reports are refused from the commit on). Answered once.
   */
  issue: (ctx: ServiceContext, actor: Actor & { type: 'user' }, ambulanceId: number) =>
    inTransaction(ctx, async (trx): Promise<DeviceIdentityResponse> => {
      const ambulance = await ambulanceRepository.findById(trx, ambulanceId);
      if (!ambulance) throw notFound('Ambulance details not found');
      const deviceId = randomBytes(SECRET_BYTES).toString('hex');
      await ambulanceRepository.setDevice(trx, ambulanceId, deviceHash(deviceId), new Date().toISOString());
      // Ambulances have no timeline: who issued which ambulance's identity is kept in the log (never the secret).
      ctx.log.info({ ambulanceId, by: actor.id }, 'device identity issued; any earlier one no longer works');
      return { device_id: deviceId, instructions: instructions(ctx.config.publicUrl, deviceId, ambulance.license_plate) };
    }),

  /** The ambulance a device secret (as its hash) belongs to, if any. */
  ambulanceOf: (ctx: ServiceContext, hash: string) => ambulanceRepository.findIdByDeviceHash(ctx.db, hash),

  /** A device's position, through the driver page's writer: the same checks, clamp, limits and live fan-out. */
  record: (ctx: ServiceContext, ambulanceId: number, position: PositionInput, protocol: DeviceProtocol) =>
    ambulanceService.recordPosition(ctx, ambulanceId, position, { type: 'device', protocol }),
};
