import { rooms } from '../contract';
import type { Metrics } from '../metrics';
import { presentTrackPosition } from '../presenters/presentTrack';
import type { Cluster, FeedPosition } from './cluster';
import type { LifelineServer } from './identity';
import { PositionCoalescer } from './positionCoalescer';
import { STAFF_SHARDS, serverRooms } from './rooms';

/** How often the `staff` room gets its batch of the latest positions (SPEC: at most once a second). */
export const STAFF_POSITION_TICK_MS = 1000;

/**
 * Positions from the cluster's feed to this node's own sockets: a room hears each position
 * once, however many nodes there are. A tracking page gets every position of its ambulance, as a
 * point of its trail (presenters/presentTrack.ts); staff get one coalesced batch per tick, sent
 * one shard room per event-loop turn.
 * Answers the stop.
 */
export function fanOutPositions(io: LifelineServer, cluster: Cluster, metrics?: Metrics): () => void {
  const staffPositions = new PositionCoalescer<FeedPosition>(STAFF_POSITION_TICK_MS, (batch) => {
    const payload = { positions: batch.map((b) => b.position) };
    const send = (shard: number) => {
      io.local.to(serverRooms.staffShard(shard)).volatile.emit('ambulance.position', payload);
      if (shard + 1 < STAFF_SHARDS) setImmediate(send, shard + 1);
      else for (const b of batch) metrics?.delivered('staff', b.at);
    };
    send(0);
    metrics?.emitted('ambulance.position');
  });
  const stopFeed = cluster.onPosition((p) => {
    staffPositions.add(p);
    // Not volatile: a tracking page gets every position (a burst must not lose fixes); staff batches may skip a tick.
    io.local.to(rooms.ambulance(p.position.ambulanceId)).emit('track.position', { positions: [presentTrackPosition(p.position)] });
    metrics?.emitted('ambulance.position');
    metrics?.delivered('ambulance', p.at);
  });
  return () => {
    stopFeed();
    staffPositions.stop();
  };
}
