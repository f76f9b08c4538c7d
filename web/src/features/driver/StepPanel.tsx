import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TrackResponse, UnitStep } from '../../api/contract';
import { queries } from '../../api/queries';
import { UNIT_STATUS_LABELS, priorityInfo, priorityTag, stepSince } from '../../domain/callLife';
import { CheckIcon, formatClock } from '../public/PublicChrome';
import type { PressState } from './pressStream';
import { STEP_BUTTON, expectedStatus, furthest, stepChoices } from './unitSteps';

interface StepPanelProps {
  data: TrackResponse;
  presses: PressState;
  press: (status: UnitStep) => void;
  /** The tracking link has stopped working (the case is over). */
  linkClosed: boolean;
}

/**
 * The crew's call: its priority, the unit's status as the server has it, and the next step as
 * one big button a gloved thumb hits; smaller skips beside it; Clear asks twice.
 */
export function StepPanel({ data, presses, press, linkClosed }: StepPanelProps) {
  const config = useQuery(queries.config()).data;
  const [confirming, setConfirming] = useState(false);
  const server = furthest(data.assignment, presses.acked);
  // Clear revokes the link, so its answer may never reach this phone: the link closing after a Clear press is the answer.
  const done = server?.status === 'cleared' || ((linkClosed || presses.closed) && presses.clearPressed);
  const shown = done ? 'cleared' : expectedStatus(server?.status, presses.waiting);
  const { next, skips } = stepChoices(shown);
  const waiting = presses.waiting.length;
  const info = data.priority ? priorityInfo(config, data.priority) : null;

  const choose = (step: UnitStep) => {
    if (step === 'cleared' && !confirming) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    press(step);
  };

  return (
    <section className="ll-card ll-card--left ll-steps" aria-labelledby="driver-step-heading" data-testid="driver-steps">
      <div className="ll-steps-head">
        {info && (
          <p className={`ll-priority ll-priority--p${info.priority}`} data-testid="driver-priority" data-priority={info.priority}>
            <strong>{priorityTag(info.priority)}</strong> {info.label}
          </p>
        )}
        <h2 id="driver-step-heading" className="ll-steps-title">
          Status:{' '}
          <span data-testid="driver-unit-status" data-status={server?.status ?? ''} data-shown={shown ?? ''}>
            {shown ? UNIT_STATUS_LABELS[shown] : 'No assignment'}
          </span>
        </h2>
        {server && shown === server.status && !done && stepSince(server) && (
          <p className="ll-muted" data-testid="driver-unit-since">Recorded at {formatClock(stepSince(server))}</p>
        )}
        {server && shown !== server.status && !done && (
          <p className="ll-muted">The dispatcher still sees {UNIT_STATUS_LABELS[server.status]} until your press is sent.</p>
        )}
      </div>

      {done ? (
        <div className="ll-state ll-state--done" role="status" data-testid="driver-done">
          <CheckIcon className="ll-state-icon" />
          <p className="ll-state-title">Job done. The case is resolved.</p>
        </div>
      ) : server?.status === 'cancelled' ? (
        <p className="ll-problem" role="status">The dispatcher took this ambulance off the case. No step to report.</p>
      ) : linkClosed || presses.closed ? null : next ? (
        <>
          {confirming ? (
            <>
              <button type="button" className="ll-step-button ll-step-button--clear" onClick={() => choose('cleared')} data-testid="driver-confirm-clear">
                Confirm clear
              </button>
              <p className="ll-note ll-note--tight">Clear ends the job: the ambulance becomes available and the case is resolved.</p>
              <button type="button" className="ll-button ll-button--secondary" onClick={() => setConfirming(false)}>Cancel, not clear yet</button>
            </>
          ) : (
            <>
              <button type="button" className={`ll-step-button ll-step-button--${next}`} onClick={() => choose(next)} data-testid="driver-next-step" data-step={next}>
                {STEP_BUTTON[next]}
              </button>
              {skips.map((step) => (
                <button key={step} type="button" className="ll-button ll-button--secondary ll-step-skip" onClick={() => choose(step)} data-testid={`driver-skip-${step}`}>
                  {step === 'cleared' ? 'Clear on scene (no transport)' : `Skip to ${STEP_BUTTON[step]}`}
                </button>
              ))}
            </>
          )}
        </>
      ) : !server ? (
        <p className="ll-muted">This ambulance has no open assignment on this case.</p>
      ) : null}

      {!done && waiting > 0 && (
        <div className="ll-queue" data-testid="driver-press-queue" data-count={waiting}>
          <p className="ll-queue-title">{waiting === 1 ? '1 press' : `${waiting} presses`} waiting to send; they go in order once the connection is back.</p>
          <ul className="ll-press-list">
            {presses.waiting.map((p) => <li key={`${p.status}-${p.at}`}>{STEP_BUTTON[p.status]} · pressed {formatClock(p.at)}</li>)}
          </ul>
        </div>
      )}
      {presses.notice && <p className="ll-problem" role="alert" data-testid="driver-press-problem">{presses.notice}</p>}
    </section>
  );
}
