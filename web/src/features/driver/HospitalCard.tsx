import { type FormEvent, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  type Activation, type AssignmentDto, type DestinationReason, type HospitalSuggestion, type LatLon, type PatientSex,
  ACTIVATIONS, ACTIVATION_LABELS, DESTINATION_REASONS, DESTINATION_REASON_LABELS, HOSPITAL_CAPABILITY_LABELS,
  type HospitalCapability, arrivalMinutes,
} from '../../api/contract';
import { HANDOVER_BAND_COLORS, destinationText, handoverClock } from '../../domain/handover';
import { useServerNow } from '../shared/useNow';
import { CheckIcon, formatClock } from '../public/PublicChrome';
import { fetchHospitalSuggestions, postDestination, postPrealert } from './driverApi';

/** Steps in which the crew chooses and tells the destination: on scene (deciding), conveying, at the hospital. */
const HOSPITAL_STEPS: readonly AssignmentDto['status'][] = ['on_scene', 'transporting', 'at_hospital', 'handover'];

interface Props {
  ambulanceId: string;
  token: string;
  assignment: AssignmentDto;
  /** What the call asks of the hospital (the server's needsForType). */
  needs: readonly HospitalCapability[];
  /** Where the suggestions rank from: the ambulance now, else the scene. */
  from: LatLon | null;
  handoverTargets: readonly number[];
}

/**
 * The crew's hospital end (issue 30): where they take the patient (ranked by arrival, the call's
 * needs matched, a hospital on diversion flagged), the ATMIST pre-alert to it and whether the
 * hospital acknowledged it, and at the hospital the handover clock against the targets.
 */
export function HospitalCard({ ambulanceId, token, assignment: a, needs, from, handoverTargets }: Props) {
  const now = useServerNow(1000);
  const [choosing, setChoosing] = useState(false);
  const [alerting, setAlerting] = useState(false);
  if (!a.can_transport || !HOSPITAL_STEPS.includes(a.status)) return null;
  const clock = handoverClock(a, now, handoverTargets);
  const d = a.destination;
  return (
    <section className="ll-card ll-card--left ll-hospital" aria-labelledby="driver-hospital-heading" data-testid="driver-hospital">
      <h2 id="driver-hospital-heading" className="ll-units-title">Hospital</h2>
      {d && !choosing ? (
        <>
          <p className="ll-text" data-testid="driver-destination">Taking the patient to <strong>{destinationText(d)}</strong></p>
          {a.status !== 'handover' && a.status !== 'at_hospital' && (
            <button type="button" className="ll-button ll-button--secondary" onClick={() => setChoosing(true)} data-testid="driver-destination-change">Change hospital</button>
          )}
        </>
      ) : (
        <DestinationPicker ambulanceId={ambulanceId} token={token} assignment={a} needs={needs} from={from} onDone={() => setChoosing(false)} canCancel={d != null} />
      )}
      {clock && (
        <p className="ll-handover" data-testid="driver-handover-clock" data-band={clock.band} style={{ background: HANDOVER_BAND_COLORS[clock.band] }}>
          {clock.done ? `Handed over after ${clock.clock}` : `Handover clock ${clock.clock}`} · {clock.words}
        </p>
      )}
      {d && a.status !== 'handover' && (
        a.prealert && !alerting ? (
          <div data-testid="driver-prealert-state">
            <p className={a.prealert.acknowledged_at ? 'll-ok' : 'll-queue'} role="status">
              {a.prealert.acknowledged_at
                ? <><CheckIcon className="ll-ok-icon" /> Pre-alert acknowledged by the hospital at {formatClock(a.prealert.acknowledged_at)}</>
                : <>Pre-alert sent at {formatClock(a.prealert.sent_at)}: waiting for the hospital to acknowledge</>}
            </p>
            <button type="button" className="ll-button ll-button--secondary" onClick={() => setAlerting(true)}>Send an updated pre-alert</button>
          </div>
        ) : alerting || !a.prealert ? (
          alerting
            ? <PrealertForm token={token} assignment={a} needs={needs} onDone={() => setAlerting(false)} />
            : <button type="button" className="ll-button ll-button--secondary" onClick={() => setAlerting(true)} data-testid="driver-prealert-open">Send pre-alert (ATMIST)</button>
        ) : null
      )}
    </section>
  );
}

function suggestionWords(s: HospitalSuggestion): string {
  const parts = [`about ${arrivalMinutes(s.eta_s)} min`];
  if (s.missing.length) parts.push(`no ${s.missing.map((m) => HOSPITAL_CAPABILITY_LABELS[m]).join(', ')}`);
  if (s.diversion) parts.push(`on diversion${s.hospital.status_reason ? `: ${s.hospital.status_reason}` : ''}`);
  return parts.join(' · ');
}

/** The reason a choice is recorded with (eDisposition.20), as a crew would say it unless they pick another. */
function defaultReason(s: HospitalSuggestion, first: HospitalSuggestion | undefined, needs: readonly string[]): DestinationReason {
  if (s.diversion) return 'other';
  if (needs.length && s.meets_needs) return 'specialty';
  return s.hospital.id === first?.hospital.id ? 'closest' : 'other';
}

function DestinationPicker({ ambulanceId, token, assignment: a, needs, from, onDone, canCancel }: {
  ambulanceId: string; token: string; assignment: AssignmentDto; needs: readonly HospitalCapability[]; from: LatLon | null; onDone: () => void; canCancel: boolean;
}) {
  const suggestions = useQuery({
    queryKey: ['driver', 'hospitals', ambulanceId, from ? `${from.latitude.toFixed(3)},${from.longitude.toFixed(3)}` : 'none', needs.join(',')],
    queryFn: ({ signal }) => fetchHospitalSuggestions(token, from!, needs, signal),
    enabled: from != null,
    staleTime: 30_000,
  });
  const [reason, setReason] = useState<DestinationReason | ''>('');
  const [sending, setSending] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const list = suggestions.data?.suggestions ?? [];
  const choose = async (s: HospitalSuggestion) => {
    setSending(s.hospital.id);
    setProblem(null);
    try {
      await postDestination(token, a.case_id, a.id, { hospital_id: s.hospital.id, reason: reason || defaultReason(s, list[0], needs) });
      onDone();
    } catch (err) {
      setProblem(err instanceof Error ? err.message : 'Could not set the hospital');
    } finally {
      setSending(null);
    }
  };
  return (
    <div data-testid="driver-destination-picker">
      <p className="ll-text">Where are you taking the patient?{needs.length ? ` This call needs: ${needs.map((n) => HOSPITAL_CAPABILITY_LABELS[n]).join(', ')}.` : ''}</p>
      {!from && <p className="ll-muted">Waiting for the ambulance's position to rank hospitals.</p>}
      {suggestions.isLoading && from && <p className="ll-muted" aria-busy>Loading hospitals...</p>}
      {suggestions.isError && <p className="ll-problem" role="alert">Could not load hospitals. <button type="button" className="ll-link" onClick={() => void suggestions.refetch()}>Try again</button></p>}
      {suggestions.isSuccess && list.length === 0 && <p className="ll-muted">No hospitals are set up yet. Tell the dispatcher where you are going.</p>}
      <label className="ll-backup-label" htmlFor="driver-destination-reason">Reason</label>
      <select id="driver-destination-reason" className="ll-backup-note" value={reason} onChange={(e) => setReason(e.target.value as DestinationReason | '')}>
        <option value="">As ranked (closest or specialty centre)</option>
        {DESTINATION_REASONS.map((r) => <option key={r} value={r}>{DESTINATION_REASON_LABELS[r]}</option>)}
      </select>
      <ul className="ll-unit-list ll-hospital-list">
        {list.map((s) => (
          <li key={s.hospital.id} className={`ll-unit${s.diversion ? ' ll-unit--off' : ''}`} data-testid="driver-hospital-option" data-diversion={s.diversion}>
            <span className="ll-unit-text">
              <strong className="ll-unit-plate">{s.hospital.name}</strong>
              <span className="ll-unit-capability">{suggestionWords(s)}</span>
            </span>
            <button type="button" className="ll-button ll-button--small" onClick={() => void choose(s)} disabled={sending != null} aria-label={`Take the patient to ${s.hospital.name}`}>
              {sending === s.hospital.id ? 'Setting…' : 'Go here'}
            </button>
          </li>
        ))}
      </ul>
      {problem && <p className="ll-problem" role="alert">{problem}</p>}
      {canCancel && <button type="button" className="ll-button ll-button--secondary" onClick={onDone}>Keep the current hospital</button>}
    </div>
  );
}

const SIGNS: { key: 'hr' | 'sbp' | 'rr' | 'spo2' | 'gcs' | 'temp'; label: string; step?: string }[] = [
  { key: 'hr', label: 'Heart rate (/min)' }, { key: 'sbp', label: 'Systolic BP (mmHg)' }, { key: 'rr', label: 'Resp. rate (/min)' },
  { key: 'spo2', label: 'SpO2 (%)' }, { key: 'gcs', label: 'GCS (3–15)' }, { key: 'temp', label: 'Temp (°C)', step: '0.1' },
];

/** "14:05" typed today as an ISO time (the latest such time not in the future); null when left empty. */
function incidentTime(hhmm: string | undefined): string | null {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm ?? '');
  if (!m) return null;
  const d = new Date();
  d.setHours(Number(m[1]), Number(m[2]), 0, 0);
  if (d.getTime() > Date.now()) d.setDate(d.getDate() - 1);
  return d.toISOString();
}

/** The ATMIST pre-alert: Age and sex, Time of incident, Mechanism, Injuries, Signs, Treatment, and what the team needs on arrival. */
function PrealertForm({ token, assignment: a, needs, onDone }: { token: string; assignment: AssignmentDto; needs: readonly HospitalCapability[]; onDone: () => void }) {
  // The team the call's need suggests; the crew changes it as they find the patient.
  const guess: Activation = needs.includes('stroke') ? 'stroke' : needs.includes('pci') ? 'stemi' : needs.includes('trauma') ? 'trauma' : 'none';
  const [form, setForm] = useState<Record<string, string>>({ sex: 'unknown', activation: guess });
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (k: string) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const num = (k: string) => (form[k]?.trim() ? Number(form[k]) : null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    setProblem(null);
    try {
      await postPrealert(token, a.case_id, a.id, {
        age: num('age'), sex: form.sex as PatientSex, time_of_incident: incidentTime(form.time), mechanism: form.mechanism ?? '', injuries: form.injuries ?? '',
        signs: { hr: num('hr'), sbp: num('sbp'), rr: num('rr'), spo2: num('spo2'), gcs: num('gcs'), temp: num('temp') },
        treatment: form.treatment ?? '', requirements: form.requirements ?? '', activation: form.activation as Activation,
      });
      onDone();
    } catch (err) {
      setProblem(err instanceof Error ? err.message : 'Could not send the pre-alert');
    } finally {
      setSending(false);
    }
  };
  const field = (k: string, label: string, type = 'text', step?: string) => (
    <div className="ll-prealert-field" key={k}>
      <label className="ll-backup-label" htmlFor={`prealert-${k}`}>{label}</label>
      <input id={`prealert-${k}`} className="ll-backup-note" type={type} step={step} inputMode={type === 'number' ? 'decimal' : undefined} value={form[k] ?? ''} onChange={set(k)} autoComplete="off" />
    </div>
  );
  return (
    <form className="ll-prealert" onSubmit={(e) => void submit(e)} data-testid="driver-prealert-form" aria-label="Pre-alert">
      <div className="ll-prealert-grid">
        {field('age', 'Age (years)', 'number')}
        <div className="ll-prealert-field">
          <label className="ll-backup-label" htmlFor="prealert-sex">Sex</label>
          <select id="prealert-sex" className="ll-backup-note" value={form.sex} onChange={set('sex')}>
            <option value="female">Female</option><option value="male">Male</option><option value="unknown">Unknown</option>
          </select>
        </div>
      </div>
      {field('time', 'Time of incident', 'time')}
      {field('mechanism', 'Mechanism / what happened')}
      {field('injuries', 'Injuries / illness found')}
      <fieldset className="ll-prealert-grid ll-prealert-signs">
        <legend className="ll-backup-label">Signs</legend>
        {SIGNS.map((s) => field(s.key, s.label, 'number', s.step))}
      </fieldset>
      {field('treatment', 'Treatment given')}
      {field('requirements', 'Needed on arrival')}
      <label className="ll-backup-label" htmlFor="prealert-activation">Team activation</label>
      <select id="prealert-activation" className="ll-backup-note" value={form.activation} onChange={set('activation')}>
        {ACTIVATIONS.map((x) => <option key={x} value={x}>{ACTIVATION_LABELS[x]}</option>)}
      </select>
      {problem && <p className="ll-problem" role="alert">Pre-alert not sent: {problem}</p>}
      <button type="submit" className="ll-button" disabled={sending} aria-busy={sending} data-testid="driver-prealert-send">{sending ? 'Sending…' : 'Send pre-alert'}</button>
      <button type="button" className="ll-button ll-button--secondary" onClick={onDone} disabled={sending}>Cancel</button>
    </form>
  );
}
