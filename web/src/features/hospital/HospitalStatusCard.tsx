import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client';
import type { HospitalPageDto, HospitalStatus } from '../../api/contract';
import { type HospitalLink, mutations } from '../../api/mutations';
import { serverNow } from '../../api/serverClock';
import { useApiMutation } from '../../api/useApiMutation';
import { CheckIcon } from '../public/PublicChrome';
import { dayTime } from './hospitalPageText';

type PageHospital = HospitalPageDto['hospital'];

const STATUS_WORDS: Record<HospitalStatus, string> = { open: 'Open', diversion: 'On diversion' };

/**
 * The hospital's diversion status as crews and dispatchers see it, who set it and when, and the
 * form to change it: a diversion needs its reason (the server refuses one without).
 */
export function HospitalStatusCard({ link, hospital }: { link: HospitalLink; hospital: PageHospital }) {
  // The form follows the server's status until someone changes it here (then it is a draft until saved).
  const [draft, setDraft] = useState<{ status: HospitalStatus; reason: string } | null>(null);
  const [missing, setMissing] = useState(false);
  const save = useApiMutation(mutations.setHospitalStatus, { onSuccess: () => setDraft(null) });
  const diversion = hospital.status === 'diversion';
  const { status, reason } = draft ?? { status: hospital.status, reason: hospital.status_reason ?? '' };
  const edit = (next: Partial<{ status: HospitalStatus; reason: string }>) => setDraft({ status, reason, ...next });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (status === 'diversion' && !reason.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    save.mutate({ link, body: { status, status_reason: status === 'diversion' ? reason.trim() : null } });
  };
  const unchanged = status === hospital.status && (status === 'open' || reason.trim() === (hospital.status_reason ?? ''));

  return (
    <section className="ll-card ll-card--left hospital-status" aria-labelledby="hospital-status-heading" data-testid="hospital-status">
      <h2 id="hospital-status-heading" className="hospital-section-title">Diversion status</h2>
      <div className={`hospital-status-now hospital-status-now--${hospital.status}`} data-testid="hospital-status-now" data-status={hospital.status}>
        <p className="hospital-status-word">{STATUS_WORDS[hospital.status]}</p>
        {diversion && hospital.status_reason && <p className="hospital-status-reason" data-testid="hospital-status-reason">{hospital.status_reason}</p>}
        <p className="hospital-status-by">
          {diversion ? 'Crews are asked to take patients elsewhere. ' : 'Crews may bring patients here. '}
          {hospital.status_updated_by ? `Set by ${hospital.status_updated_by} at ` : 'Since '}{dayTime(hospital.status_updated_at, serverNow())}
        </p>
      </div>

      <form className="hospital-status-form" onSubmit={submit} noValidate>
        <fieldset className="hospital-fieldset">
          <legend className="hospital-legend">Set the hospital's status</legend>
          <div className="hospital-radios">
            {(['open', 'diversion'] as const).map((s) => (
              <label key={s} className={`hospital-radio${status === s ? ' hospital-radio--on' : ''}`}>
                <input type="radio" name="hospital-status" value={s} checked={status === s} onChange={() => edit({ status: s })} />
                {STATUS_WORDS[s]}
              </label>
            ))}
          </div>
        </fieldset>
        {status === 'diversion' && (
          <div className="hospital-reason">
            <label htmlFor="hospital-reason" className="hospital-legend">Reason for diversion (required)</label>
            <textarea
              id="hospital-reason"
              className="ll-backup-note hospital-textarea"
              value={reason}
              maxLength={200}
              rows={2}
              onChange={(e) => edit({ reason: e.target.value })}
              aria-invalid={missing || undefined}
              aria-describedby={missing ? 'hospital-reason-error' : undefined}
              placeholder="e.g. CT scanner down, no beds in resus"
            />
            {missing && <p id="hospital-reason-error" className="ll-problem" role="alert">Say why the hospital is on diversion.</p>}
          </div>
        )}
        {unchanged ? (
          <p className="ll-muted" data-testid="hospital-status-hint">
            {diversion ? 'Choose Open when the hospital can take ambulances again, or change the reason.' : 'Choose On diversion to ask crews to take patients elsewhere.'}
          </p>
        ) : (
          <button type="submit" className="ll-button hospital-save" disabled={save.isPending} aria-busy={save.isPending}>
            {save.isPending ? 'Saving...' : status === 'diversion' ? (diversion ? 'Update the reason' : 'Put on diversion') : 'Open to ambulances'}
          </button>
        )}
        {save.isError && (
          <p className="ll-problem" role="alert">{(save.error instanceof ApiError && save.error.serverError) || 'Could not save the status. Try again.'}</p>
        )}
        {save.isSuccess && draft == null && (
          <p className="ll-ok" role="status" data-testid="hospital-status-saved"><CheckIcon className="ll-ok-icon" /> Saved. Dispatchers see it at once.</p>
        )}
      </form>
    </section>
  );
}
