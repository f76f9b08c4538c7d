import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { HospitalPageDto } from '../../api/contract';
import { type HospitalLink, mutations } from '../../api/mutations';
import { queries } from '../../api/queries';
import { serverNow } from '../../api/serverClock';
import { useApiMutation } from '../../api/useApiMutation';
import { handoverTargets } from '../../domain/handover';
import type { ConnectionState } from '../../realtime/socket';
import { AlertIcon, PublicHeader } from '../public/PublicChrome';
import { useServerNow } from '../shared/useNow';
import { HospitalStatusCard } from './HospitalStatusCard';
import { ArrivedUnit, InboundUnit } from './HospitalUnits';
import {
  DEAD_LINK_TEXT, LOAD_FAILED_TEXT, NO_ARRIVED_TEXT, NO_INBOUND_TEXT, newPrealertText, prealertsOf,
} from './hospitalPageText';
import { hospitalLinkGone, useHospitalPage } from './useHospitalPage';
import '../public/public.css';
import '../driver/driver.css';
import './hospital.css';

/**
 * /hospital/{hospitalId}?t=TOKEN: a hospital's own page (issue 30), no sign-in, the link is the
 * permission. Only its own: its diversion status (it can set it), the units coming in with their
 * live arrival estimate and ATMIST pre-alert (Acknowledge), and the units arrived with the handover
 * clock against the targets in force (Handover complete). No patient's name, contact or address.
 * Plain React and CSS like the driver page: it stays open for hours on a department's screen.
 */
export function HospitalPage({ hospitalId, token }: { hospitalId: string; token: string }) {
  const { query, connection } = useHospitalPage(hospitalId, token);
  const data = query.data;

  let body: ReactNode;
  if (!token || hospitalLinkGone(query.error)) {
    body = <Problem title={DEAD_LINK_TEXT} testId="hospital-dead-link" />;
  } else if (!data) {
    body = query.isError
      ? <Problem title={LOAD_FAILED_TEXT} testId="hospital-error" retry={() => void query.refetch()} retrying={query.isFetching} />
      : (
        <section className="ll-card" aria-busy aria-labelledby="hospital-loading" data-testid="hospital-loading">
          <span className="ll-spinner ll-spinner--dark" aria-hidden />
          <h1 id="hospital-loading" className="ll-text" style={{ fontWeight: 400 }}>Loading the hospital's page...</h1>
        </section>
      );
  } else {
    body = (
      <HospitalBoard
        link={{ hospitalId, token }}
        data={data}
        connection={connection}
        refreshFailed={query.isError}
      />
    );
  }

  return (
    <div className="ll-page">
      <PublicHeader tag="Hospital" />
      <main className="ll-main ll-main--hospital">{body}</main>
    </div>
  );
}

function Problem({ title, testId, retry, retrying }: { title: string; testId: string; retry?: () => void; retrying?: boolean }) {
  return (
    <section className="ll-card" role="alert" data-testid={testId}>
      <AlertIcon className="ll-hero-icon ll-hero-icon--error" />
      <h1 className="ll-title ll-title--small">{title}</h1>
      {retry && (
        <button type="button" className="ll-button ll-button--secondary" onClick={retry} disabled={retrying} aria-busy={retrying}>
          {retrying ? 'Trying again...' : 'Try again'}
        </button>
      )}
    </section>
  );
}

function HospitalBoard({ link, data, connection, refreshFailed }: {
  link: HospitalLink;
  data: HospitalPageDto;
  connection: ConnectionState;
  refreshFailed: boolean;
}) {
  const now = useServerNow(1000);
  const targets = handoverTargets(useQuery(queries.config()).data);
  const announcement = useNewPrealertAnnouncement(data);
  const ack = useApiMutation(mutations.acknowledgePrealert);
  const handover = useApiMutation(mutations.hospitalHandover);
  const { hospital, inbound, arrived } = data;

  return (
    <>
      <section className="ll-card ll-card--left hospital-head" aria-labelledby="hospital-name">
        <div>
          <h1 id="hospital-name" className="ll-title ll-title--small" data-testid="hospital-name">{hospital.name}</h1>
          {hospital.address && <p className="ll-muted">{hospital.address}</p>}
        </div>
        <p className={`hospital-live hospital-live--${connection === 'live' ? 'on' : 'off'}`} data-testid="hospital-connection" data-state={connection}>
          {connection === 'live' ? 'Live' : 'Reconnecting: reading every 15 s'}
        </p>
        {refreshFailed && <p className="ll-problem hospital-wide" role="status">Could not refresh: what shows may be out of date. Trying again every 15 s.</p>}
      </section>

      {/* Read by screen readers as each new pre-alert arrives (the cards carry the details). */}
      <p className="hospital-sr" aria-live="assertive" role="status" data-testid="hospital-announcer">{announcement}</p>

      <HospitalStatusCard link={link} hospital={hospital} />

      <div className="hospital-columns">
        <section className="ll-card ll-card--left" aria-labelledby="hospital-inbound-heading" data-testid="hospital-inbound">
          <h2 id="hospital-inbound-heading" className="hospital-section-title">
            Coming in <span className="hospital-count">{inbound.length}</span>
          </h2>
          {inbound.length === 0
            ? <p className="ll-muted hospital-empty" data-testid="hospital-inbound-empty">{NO_INBOUND_TEXT}</p>
            : (
              <ul className="hospital-units">
                {inbound.map((u) => (
                  <InboundUnit
                    key={u.assignment_id}
                    unit={u}
                    serverTime={data.server_time}
                    now={now}
                    acknowledging={ack.isPending && ack.variables?.prealertId === u.prealert?.id}
                    ackError={ack.isError && ack.variables?.prealertId === u.prealert?.id ? ack.error : null}
                    onAcknowledge={(prealertId) => ack.mutate({ link, prealertId })}
                  />
                ))}
              </ul>
            )}
        </section>

        <section className="ll-card ll-card--left" aria-labelledby="hospital-arrived-heading" data-testid="hospital-arrived">
          <h2 id="hospital-arrived-heading" className="hospital-section-title">
            Arrived <span className="hospital-count">{arrived.length}</span>
          </h2>
          {arrived.length === 0
            ? <p className="ll-muted hospital-empty" data-testid="hospital-arrived-empty">{NO_ARRIVED_TEXT}</p>
            : (
              <ul className="hospital-units">
                {arrived.map((u) => (
                  <ArrivedUnit
                    key={u.assignment_id}
                    unit={u}
                    now={now}
                    targets={targets}
                    pressing={handover.isPending && handover.variables?.assignmentId === u.assignment_id}
                    pressError={handover.isError && handover.variables?.assignmentId === u.assignment_id ? handover.error : null}
                    onHandover={() => handover.mutate({ link, assignmentId: u.assignment_id })}
                    acknowledging={ack.isPending && ack.variables?.prealertId === u.prealert?.id}
                    onAcknowledge={(prealertId) => ack.mutate({ link, prealertId })}
                  />
                ))}
              </ul>
            )}
        </section>
      </div>
    </>
  );
}

/**
 * What the live region says when pre-alerts arrive that this page had not seen (none for those
 * already there when it opened): the newest one's words, for as long as no other comes.
 */
function useNewPrealertAnnouncement(data: HospitalPageDto): string {
  const seen = useRef<Set<number> | null>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    const all = prealertsOf(data);
    if (seen.current == null) {
      seen.current = new Set(all.map((x) => x.prealert.id));
      return;
    }
    const fresh = all.filter((x) => !seen.current!.has(x.prealert.id));
    for (const x of fresh) seen.current.add(x.prealert.id);
    if (fresh.length) setText(fresh.map((x) => newPrealertText(x.unit, x.prealert, data.server_time, serverNow())).join('. '));
  }, [data]);
  return text;
}
