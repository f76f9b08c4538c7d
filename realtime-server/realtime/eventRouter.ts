import { type CaseDto, isOpenAssignment, rooms } from '../contract';
import type { Metrics } from '../metrics';
import { presentTrackUpdate } from '../presenters/presentTrack';
import type { DomainEvent } from '../services/events';
import type { Cluster } from './cluster';
import type { LifelineServer } from './identity';
import { serverRooms } from './rooms';
import type { Standby } from './standby';

/**
 * A changed case to its links' sockets, in the same turn staff hear it: the viewer's and the
 * driver's of each unit on it (and of its primary, once over), each as its role may see it
 * (presenters/presentTrack.ts, the presenter of GET /api/track), so a step pressed on the board
 * reaches the crew's phone at once. A link's socket hears nothing of a case but this.
 */
function toLinks(io: LifelineServer, c: CaseDto) {
  const ambulanceIds = new Set(c.assignments.filter((a) => isOpenAssignment(a.status) || a.id === c.assignment?.id).map((a) => a.ambulance_id));
  for (const ambulanceId of ambulanceIds) {
    if (ambulanceId == null) continue;
    io.to(serverRooms.link('viewer', c.id, ambulanceId)).emit('track.case', presentTrackUpdate(c, ambulanceId, 'viewer'));
    io.to(serverRooms.link('driver', c.id, ambulanceId)).emit('track.case', presentTrackUpdate(c, ambulanceId, 'driver'));
  }
}

/**
 * The hospital pages a changed case concerns: the destination of each of its units (a step, a close
 * or a stand-down changes what the page shows); each page reads itself again (`hospital.changed`).
 */
function toHospitals(io: LifelineServer, c: CaseDto) {
  const ids = new Set(c.assignments.flatMap((a) => (a.destination?.hospital_id != null ? [a.destination.hospital_id] : [])));
  for (const id of ids) io.to(rooms.hospital(id)).emit('hospital.changed', { hospital_id: id });
}

/** A case whose assignments have just been made offers the call to those ambulances' waiting driver links. */
function offerToStandby(c: CaseDto, standby?: Standby) {
  if (c.status !== 'active') return;
  for (const a of c.assignments) if (a.status === 'dispatched' && a.ambulance_id != null) standby?.offer(a.ambulance_id);
}

/**
 * Each committed domain event to the rooms that may hear it, through the adapter (every node's
 * sockets when clustered); a position goes to the cluster's feed (realtime/positionFanout.ts).
 */
export function routeEvents(io: LifelineServer, cluster: Cluster, metrics?: Metrics, standby?: Standby) {
  return (e: DomainEvent) => {
    if (e.type !== 'ambulance.position' && e.type !== 'mail.queued') metrics?.emitted(e.type);
    switch (e.type) {
      // Whole cases only to staff; a case's links get it as track.case.
      case 'case.created':
      case 'case.updated':
        io.to(rooms.staff).emit(e.type, e.case);
        toLinks(io, e.case);
        toHospitals(io, e.case);
        return offerToStandby(e.case, standby);
      case 'case.deleted':
        return io.to(rooms.staff).emit(e.type, { id: e.id });
      case 'case.location':
        io.to(rooms.staff).emit(e.type, e.location);
        return toLinks(io, e.case);
      case 'ambulance.created':
      case 'ambulance.updated':
        return io.to(rooms.staff).emit(e.type, e.ambulance);
      case 'ambulance.deleted':
        return io.to(rooms.staff).emit(e.type, { id: e.id });
      case 'ambulance.position':
        return cluster.publishPosition(e.position);
      case 'user.created':
      case 'user.updated':
        return io.to(rooms.admins).emit(e.type, e.user);
      case 'user.deleted':
        return io.to(rooms.admins).emit(e.type, { id: e.id });
      case 'sessions.revoked':
        for (const id of e.sessionIds) io.in(serverRooms.session(id)).disconnectSockets(true);
        return;
      case 'grants.revoked':
        // After the answers of this turn: a driver's `cleared` revokes its own link, and its ack must reach it before the socket closes.
        setImmediate(() => {
          if (e.ambulanceId == null) io.in(serverRooms.grant(e.caseId)).disconnectSockets(true);
          else for (const role of ['viewer', 'driver'] as const) io.in(serverRooms.link(role, e.caseId, e.ambulanceId)).disconnectSockets(true);
        });
        return;
      case 'backup.requested':
        return io.to(rooms.staff).emit(e.type, e.alert);
      case 'hospital.updated':
        io.to(rooms.staff).emit(e.type, e.hospital);
        return io.to(rooms.hospital(e.hospital.id)).emit('hospital.changed', { hospital_id: e.hospital.id });
      case 'hospital.deleted':
        io.to(rooms.staff).emit(e.type, { id: e.id });
        return io.in(rooms.hospital(e.id)).disconnectSockets(true);
      case 'hospital.linkRevoked':
        return io.in(rooms.hospital(e.hospitalId)).disconnectSockets(true);
      case 'hospital.changed':
        for (const id of e.hospitalIds) io.to(rooms.hospital(id)).emit('hospital.changed', { hospital_id: id });
        return;
      case 'prealert.late':
        return io.to(rooms.staff).emit(e.type, e.alert);
      case 'prealert.acknowledged':
        return io.to(rooms.staff).emit(e.type, e.alert);
      case 'mail.queued':
        return;
    }
  };
}
