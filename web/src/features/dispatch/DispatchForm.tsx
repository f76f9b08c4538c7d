import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent, type Ref, type RefObject } from 'react';
import type { IntakeLocationDto, LatLon } from '../../api/contract';
import { serverNow } from '../../api/serverClock';
import { useToast } from '../../layout/toast';
import { MailIcon } from '../../layout/icons';
import { SendIcon } from '../../layout/icons';
import { LocationField } from '../location/LocationField';
import { AmbulanceSelect } from './AmbulanceSelect';
import { CallStartClock } from './CallStartClock';
import { EMERGENCY_TYPES, EMPTY_FORM, descriptionLabel, descriptionMax, dispatchErrors, firstInvalid, type DispatchField, type DispatchMode, type DispatchValues } from './dispatchForm';
import { callReceivedAt, formPriority, noteCallStart, startsCall } from './intake';
import { planPartner, plannedAmbulance } from './dispatchPlan';
import { PlanLine } from './PlanLine';
import { PrioritySelect } from './PrioritySelect';
import { SuggestedAmbulances } from './SuggestedAmbulances';
import { typeAheadSpaceProps } from './typeAheadSpace';
import { useAvailableAmbulances } from './useAvailableAmbulances';
import { usePlannedSuggestions } from './usePlannedSuggestions';
import { useDispatchCase, type CreatedCall } from './useDispatchCase';

/** What a field's ref holds: the input, or the select's handle (its focus() focuses the select). */
type Focusable = { focus: () => void };

/**
 * The New Emergency Case form: validates on submit, dispatches, resets on success. A refused
 * submit marks each invalid field with its reason and moves focus to the first one; from then
 * on the marks follow the typing. The toast is the same text each time, and the toast layer
 * never stacks identical toasts, so pressing again does not pile them up.
 *
 * The call's clock starts at the first keystroke (or the "Call started" button) and is sent as
 * `call_received_at` in the server's time. With no ambulance free the call can be queued
 * (pending, no ambulance); a dispatcher may also queue on purpose.
 *
 * The location comes first, as a call-taker asks for it first (it has the focus when the screen
 * opens, and Tab goes from it to the patient's name): once it is understood, the server ranks
 * the free ambulances by arrival for the call's priority and its plan's first unit is preselected
 * (its one-click choices sit with the ambulance select), as the priority follows the type, until
 * the operator picks one by hand. When the plan sends two ("car 2 min, ambulance 9 min: send
 * both"), the second is ticked beside its reason and added to the call once it is created.
 *
 * Until the ambulance list has loaded nothing is said about which are free; a failed load shows
 * its error with Retry in the select's place, and the form never claims that none is free.
 */
export function DispatchForm({ onDispatched, onNextCall, locationRef, near = null }: {
  onDispatched: (created: CreatedCall) => void;
  /** The operator started on the next call (typed, picked, or pressed Call started). */
  onNextCall?: () => void;
  /** Receives the Location box, the first field of a call. */
  locationRef?: Ref<HTMLInputElement>;
  /** The patient's location when it is already known (normally not at creation). */
  near?: LatLon | null;
}) {
  const [values, setValues] = useState<DispatchValues>(EMPTY_FORM);
  const fleet = useAvailableAmbulances();
  const { available, loading } = fleet;
  const dispatch = useDispatchCase(onDispatched);
  const toast = useToast();
  /** The mode of the last refused submit: its marks follow the typing from then on. */
  const [tried, setTried] = useState<DispatchMode | null>(null);
  /** When the operator started taking the call, in the server's time. */
  const [callStart, setCallStart] = useState<number | null>(null);
  const startCall = () => {
    onNextCall?.();
    setCallStart((s) => noteCallStart(s, serverNow()));
  };
  const typeListProps = useMemo(() => typeAheadSpaceProps(), []);
  const patientNameRef = useRef<Focusable>(null);
  const emailRef = useRef<Focusable>(null);
  const emergencyTypeRef = useRef<Focusable>(null);
  const ambulanceRef = useRef<Focusable>(null);
  const descriptionRef = useRef<Focusable>(null);
  const retryRef = useRef<HTMLButtonElement>(null);
  /** What had the focus when a submit began: the fields and buttons are disabled while it runs, so focus falls to <body>. */
  const focusBefore = useRef<HTMLElement | null>(null);
  const set = (field: Exclude<keyof DispatchValues, 'intake'>) => (value: string) => {
    startCall();
    setValues((v) => ({ ...v, [field]: value }));
  };
  const setIntake = useCallback((intake: IntakeLocationDto | null) => {
    if (intake) onNextCall?.();
    setValues((v) => ({ ...v, intake }));
  }, [onNextCall]);
  /** Bumped on each reset, so the location box forgets its typed text too. */
  const [formKey, setFormKey] = useState(0);

  const at = values.intake ?? near;
  const suggestions = usePlannedSuggestions(at, available, formPriority(values.priority, values.emergencyType));
  // The hand-picked ambulance while it is free (one taken meanwhile drops out), else the plan's first unit, else the quickest suggested one.
  const ambulanceId = plannedAmbulance(values.ambulanceId, suggestions.plan, suggestions.ranked ?? [], available);
  // "Send both": the plan's second unit goes too unless the dispatcher unticks it (a new plan asks again).
  const partner = planPartner(suggestions.plan, ambulanceId, available);
  const [declined, setDeclined] = useState<number | null>(null);
  const alsoSend = partner && declined !== partner.ambulance_id ? partner : null;
  const submitting = dispatch.isPending;
  const isOther = values.emergencyType === 'Other';
  // Only a list that loaded can say that none is free.
  const noneFree = !loading && !fleet.failed && available.length === 0;
  const errors = tried ? dispatchErrors({ ...values, ambulanceId }, tried) : {};
  // MUI ties the helper text to the input (aria-describedby) and sets aria-invalid from `error`.
  const marks = (field: DispatchField) => ({ error: Boolean(errors[field]), helperText: errors[field] });

  const submit = (mode: DispatchMode) => {
    const form = { ...values, ambulanceId };
    const first = firstInvalid(dispatchErrors(form, mode));
    if (first) {
      setTried(mode);
      const fields: Record<DispatchField, RefObject<Focusable | null>> = {
        patientName: patientNameRef, email: emailRef, emergencyType: emergencyTypeRef, ambulanceId: fleet.failed ? retryRef : ambulanceRef, description: descriptionRef,
      };
      fields[first].current?.focus();
      toast('Please fill all required fields', 'error');
      return;
    }
    focusBefore.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const also = alsoSend ? { ambulanceId: alsoSend.ambulance_id, plate: alsoSend.license_plate } : null;
    dispatch.mutate(form, { mode, callReceivedAt: callReceivedAt(callStart, serverNow()), also }, {
      onSuccess: () => { setValues(EMPTY_FORM); setTried(null); setCallStart(null); setDeclined(null); setFormKey((k) => k + 1); },
    });
  };
  // Enter in a field: dispatch, or queue when no ambulance is free.
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(noneFree ? 'queue' : 'dispatch');
  };
  const onKeyDownCapture = (e: KeyboardEvent) => {
    if (startsCall(e.key) && !(e.target instanceof Element && e.target.closest('[data-call-clock]'))) startCall();
  };
  const queueing = submitting && dispatch.mode === 'queue';
  // A submit ended: on success the new call's share-link panel has taken the focus; otherwise
  // (refused) it goes back where it was, never left on <body>.
  useEffect(() => {
    if (submitting) return;
    const before = focusBefore.current;
    focusBefore.current = null;
    if (before?.isConnected && (document.activeElement === document.body || document.activeElement == null)) before.focus();
  }, [submitting]);
  // The list came back after Retry: the focus that was on Retry goes to the select now in its place.
  const wasFailed = useRef(fleet.failed);
  useEffect(() => {
    if (wasFailed.current && !fleet.failed && document.activeElement === document.body) ambulanceRef.current?.focus();
    wasFailed.current = fleet.failed;
  }, [fleet.failed]);
  /** The first form only: a reset for the next call leaves the focus with the new call's panel. */
  const firstForm = formKey === 0;

  return (
    <Card component="section" aria-labelledby="new-case-title">
      <CardContent component="form" noValidate onSubmit={onSubmit} onKeyDownCapture={onKeyDownCapture} sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id="new-case-title" variant="h6" component="h2">New Emergency Case</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>Fields marked * are required.</Typography>
        <CallStartClock startMs={callStart} onStart={startCall} onReset={() => setCallStart(null)} disabled={submitting} />
        <Box sx={{ display: 'grid', gap: 1.5, mb: 2.5 }}>
          <LocationField key={formKey} value={values.intake ?? null} onChange={setIntake} disabled={submitting} inputRef={locationRef} autoFocus={firstForm} />
        </Box>
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <TextField label="Patient Name" required value={values.patientName} onChange={(e) => set('patientName')(e.target.value)} autoComplete="off" disabled={submitting} {...marks('patientName')} inputRef={patientNameRef} />
          <TextField label="Email Address" type="email" required value={values.email} onChange={(e) => set('email')(e.target.value)} autoComplete="off" disabled={submitting} {...marks('email')} inputRef={emailRef} />
          <TextField select label="Emergency Type" required value={values.emergencyType} onChange={(e) => set('emergencyType')(e.target.value)} disabled={submitting} {...marks('emergencyType')} inputRef={emergencyTypeRef} slotProps={{ select: { MenuProps: { slotProps: { list: typeListProps } } } }}>
            {EMERGENCY_TYPES.map((t) => <MenuItem key={t} value={t}>{t}</MenuItem>)}
          </TextField>
          {/*
            Without a location the list keeps the server's order; with one, the server's ranking
            by arrival (or, while it is not there, nearest first by straight line), and the
            quickest as one-click choices under it: with the choice they make, not between the
            location and the patient's name.
          */}
          <Box sx={{ display: 'grid', gap: 1, alignContent: 'start', minWidth: 0 }}>
            <AmbulanceSelect
              value={ambulanceId}
              onChange={set('ambulanceId')}
              available={available}
              loading={loading}
              failure={fleet.failed ? { text: fleet.failText ?? 'Failed to fetch ambulances', retry: fleet.retry, retrying: fleet.retrying } : null}
              retryRef={retryRef}
              disabled={submitting}
              near={at}
              ranked={suggestions.ranked}
              ranking={suggestions.loading}
              pickedByHand={values.ambulanceId !== ''}
              error={errors.ambulanceId}
              inputRef={ambulanceRef}
            />
            {suggestions.ranked && !noneFree && !fleet.failed && (
              <SuggestedAmbulances ranked={suggestions.ranked} value={ambulanceId} onPick={set('ambulanceId')} disabled={submitting} />
            )}
            {suggestions.plan && !noneFree && !fleet.failed && (
              <PlanLine
                plan={suggestions.plan}
                partner={partner}
                checked={alsoSend != null}
                onCheck={(on) => setDeclined(on || !partner ? null : partner.ambulance_id)}
                disabled={submitting}
              />
            )}
          </Box>
          {/* After the ambulance, so Tab goes type → ambulance as before; it is preselected and seldom needs a hand. */}
          <PrioritySelect picked={values.priority} emergencyType={values.emergencyType} onPick={set('priority')} disabled={submitting} />
          {/* Notes for any type (the caller's words); for Other it is SPEC's required Description. */}
          <TextField
            label={descriptionLabel(values.emergencyType)}
            required={isOther}
            multiline
            minRows={isOther ? 3 : 2}
            value={values.description}
            onChange={(e) => set('description')(e.target.value)}
            placeholder={isOther ? 'Describe the emergency' : 'What the caller says (optional)'}
            disabled={submitting}
            {...marks('description')} inputRef={descriptionRef}
            slotProps={{ htmlInput: { maxLength: descriptionMax(values.emergencyType) } }}
            sx={{ gridColumn: '1 / -1' }}
          />
        </Box>
        <Alert severity="info" icon={<MailIcon fontSize="inherit" />} sx={{ mt: 3 }}>
          The patient will receive an email with a link to share their location with the emergency team.
        </Alert>
        {noneFree && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            No ambulance is free: queue the call and it waits at the top of its priority until one is.
          </Alert>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 3 }}>
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={submitting || available.length === 0}
            startIcon={submitting && !queueing ? <CircularProgress size={18} color="inherit" /> : <SendIcon />}
            sx={{ width: { xs: '100%', sm: 'auto' }, px: 4 }}
          >
            {submitting && !queueing ? 'Creating Case...' : 'Dispatch Emergency'}
          </Button>
          {/* Primary when nothing is free; otherwise a dispatcher may still hold a call on purpose. */}
          <Button
            type="button"
            variant={noneFree ? 'contained' : 'outlined'}
            color={noneFree ? 'warning' : 'primary'}
            size="large"
            disabled={submitting || loading}
            onClick={() => submit('queue')}
            startIcon={queueing ? <CircularProgress size={18} color="inherit" /> : undefined}
            sx={{ width: { xs: '100%', sm: 'auto' }, px: 4 }}
          >
            {queueing ? 'Queueing Call...' : 'Queue call'}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
