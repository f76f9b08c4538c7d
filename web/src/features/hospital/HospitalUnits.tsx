import { Fragment } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import type { HospitalUnitDto, Priority, PrealertDto } from '../../api/contract';
import { queries } from '../../api/queries';
import { UNIT_STATUS_LABELS, priorityInfo, priorityTag } from '../../domain/callLife';
import { HANDOVER_BAND_COLORS, handoverClock } from '../../domain/handover';
import { AmbulanceIcon, CheckIcon } from '../public/PublicChrome';
import { capabilityWords } from '../shared/capabilityWords';
import { atmistRows, etaLeftS, etaText, hhmm, unitName } from './hospitalPageText';

const errorText = (error: unknown, fallback: string) => (error instanceof ApiError && error.serverError) || fallback;

/** Priority, plate, capability and the call's short id: the head of every unit's card. */
function UnitHead({ unit, headingId }: { unit: HospitalUnitDto; headingId: string }) {
  const info = priorityInfo(useQuery(queries.config()).data, unit.priority as Priority);
  return (
    <div className="hospital-unit-head">
      <AmbulanceIcon className="hospital-unit-icon" />
      <div className="hospital-unit-names">
        <h3 id={headingId} className="hospital-unit-plate" data-testid="hospital-unit-plate">{unitName(unit)}</h3>
        <p className="ll-muted">{capabilityWords(unit.capability)} · Call {unit.call_ref}</p>
      </div>
      <p className={`ll-priority ll-priority--p${info.priority} hospital-priority`} data-testid="hospital-unit-priority" data-priority={unit.priority}>
        <strong>{priorityTag(info.priority)}</strong> {info.label}
      </p>
    </div>
  );
}

/** A unit conveying a patient here: its live arrival estimate and its pre-alert. */
export function InboundUnit({ unit, serverTime, now, acknowledging, ackError, onAcknowledge }: {
  unit: HospitalUnitDto;
  serverTime: string;
  now: number;
  acknowledging: boolean;
  ackError: unknown;
  onAcknowledge: (prealertId: number) => void;
}) {
  const headingId = `hospital-unit-${unit.assignment_id}`;
  const left = etaLeftS(unit, serverTime, now);
  return (
    <li className="hospital-unit" data-testid="hospital-unit" data-assignment-id={unit.assignment_id}>
      <article aria-labelledby={headingId}>
        <UnitHead unit={unit} headingId={headingId} />
        <p className="hospital-eta" data-testid="hospital-eta" data-left={left ?? undefined}>
          {unit.status !== 'transporting' && <span className="hospital-step">{UNIT_STATUS_LABELS[unit.status]} · </span>}
          {etaText(unit, serverTime, now)}
        </p>
        {unit.prealert
          ? <Prealert unit={unit} prealert={unit.prealert} acknowledging={acknowledging} error={ackError} onAcknowledge={onAcknowledge} />
          : <p className="ll-muted">No pre-alert sent.</p>}
      </article>
    </li>
  );
}

/** A unit at the hospital: the handover clock from its arrival, in colour and words, and Handover complete. */
export function ArrivedUnit({ unit, now, targets, pressing, pressError, onHandover, acknowledging, onAcknowledge }: {
  unit: HospitalUnitDto;
  now: number;
  targets: readonly number[];
  pressing: boolean;
  pressError: unknown;
  onHandover: () => void;
  acknowledging: boolean;
  onAcknowledge: (prealertId: number) => void;
}) {
  const headingId = `hospital-unit-${unit.assignment_id}`;
  const clock = handoverClock(unit, now, targets);
  const waiting = unit.status === 'at_hospital' && unit.handover_at == null;
  return (
    <li className="hospital-unit" data-testid="hospital-unit" data-assignment-id={unit.assignment_id}>
      <article aria-labelledby={headingId}>
        <UnitHead unit={unit} headingId={headingId} />
        <p className="ll-muted">Arrived {hhmm(unit.at_hospital_at)}</p>
        {clock ? (
          <p
            className="hospital-clock"
            data-testid="handover-clock"
            data-band={clock.band}
            data-done={clock.done}
            style={{ background: HANDOVER_BAND_COLORS[clock.band] }}
          >
            {clock.done
              ? <>Handed over at {hhmm(unit.handover_at)} · after {clock.clock} · {clock.words}</>
              : <><span className="hospital-clock-time">{clock.clock}</span><span>waiting for handover · {clock.words}</span></>}
          </p>
        ) : (
          <p className="ll-muted" data-testid="handover-none">The unit cleared without a recorded handover.</p>
        )}
        {waiting && (
          <button type="button" className="ll-button hospital-handover" onClick={onHandover} disabled={pressing} aria-busy={pressing}>
            {pressing ? 'Sending...' : 'Handover complete'}<span className="hospital-sr"> for {unitName(unit)}</span>
          </button>
        )}
        {pressError != null && <p className="ll-problem" role="alert">{errorText(pressError, 'Could not record the handover. Try again.')}</p>}
        {unit.prealert && <Prealert unit={unit} prealert={unit.prealert} acknowledging={acknowledging} error={null} onAcknowledge={onAcknowledge} />}
      </article>
    </li>
  );
}

/** The pre-alert in ATMIST order, and Acknowledge (then when it was acknowledged). */
function Prealert({ unit, prealert: p, acknowledging, error, onAcknowledge }: {
  unit: HospitalUnitDto;
  prealert: PrealertDto;
  acknowledging: boolean;
  error: unknown;
  onAcknowledge: (prealertId: number) => void;
}) {
  const headingId = `hospital-prealert-${p.id}`;
  return (
    <section className={`hospital-prealert${p.acknowledged_at ? '' : ' hospital-prealert--new'}`} aria-labelledby={headingId} data-testid="hospital-prealert" data-prealert-id={p.id}>
      <h4 id={headingId} className="hospital-prealert-title">
        Pre-alert<span className="hospital-sr"> for {unitName(unit)}</span> <span className="ll-muted">sent {hhmm(p.sent_at)}</span>
      </h4>
      {p.redacted
        ? <p className="ll-muted">Its content was removed after the retention period.</p>
        : (
          <dl className="ll-facts hospital-atmist" data-testid="hospital-atmist">
            {atmistRows(p).map((r) => (
              <Fragment key={r.term}>
                <dt>{r.term}</dt>
                <dd>{r.text}</dd>
              </Fragment>
            ))}
          </dl>
        )}
      {p.acknowledged_at ? (
        <p className="ll-ok" data-testid="prealert-acknowledged"><CheckIcon className="ll-ok-icon" /> Acknowledged {hhmm(p.acknowledged_at)}</p>
      ) : (
        <button type="button" className="ll-button hospital-ack" onClick={() => onAcknowledge(p.id)} disabled={acknowledging} aria-busy={acknowledging}>
          {acknowledging ? 'Sending...' : 'Acknowledge'}<span className="hospital-sr"> pre-alert for {unitName(unit)}</span>
        </button>
      )}
      {error != null && <p className="ll-problem" role="alert">{errorText(error, 'Could not acknowledge. Try again.')}</p>}
    </section>
  );
}
