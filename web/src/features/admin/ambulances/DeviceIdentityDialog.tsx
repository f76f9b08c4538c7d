import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { AmbulanceDto, DeviceIdentityResponse } from '../../../api/contract';
import { mutations } from '../../../api/mutations';
import { useApiMutation } from '../../../api/useApiMutation';
import { copyText } from '../../../layout/clipboard';
import { CheckIcon, CopyIcon } from '../../../layout/icons';
import { serverErrorOr } from '../shared/errors';
import { useShowOnceClose } from '../shared/useShowOnceClose';

/**
 * An ambulance's device identity (admins): first a confirmation that the earlier identity stops
 * working, then the new device id, shown this once (the server keeps only its hash), with how to
 * set up Traccar Client and OwnTracks. While the id shows, a click beside the dialog does nothing
 * and Escape, until the id is copied, asks first (the safe answer focused): only Done closes it at
 * once, so the secret is not lost by accident. The confirmation's focus is on Cancel: issuing
 * stops the earlier identity.
 */
export function DeviceIdentityDialog({ open, ambulance, onClose }: { open: boolean; ambulance: AmbulanceDto; onClose: () => void }) {
  const issue = useApiMutation(mutations.issueDevice);
  const plate = ambulance.license_plate;
  const issued = issue.data;
  const { copied, setCopied, leaving, setLeaving, requestClose } = useShowOnceClose({ pending: issue.isPending, shown: Boolean(issued), onClose });
  return (
    <Dialog
      open={open}
      onClose={requestClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="device-dialog-title"
      aria-describedby="device-dialog-text"
    >
      <DialogTitle id="device-dialog-title">{issued ? `Device identity for ${plate}` : `New device identity for ${plate}?`}</DialogTitle>
      {issued ? <Issued plate={plate} identity={issued} copied={copied} onCopied={setCopied} /> : (
        <DialogContent dividers>
          <DialogContentText id="device-dialog-text">
            A phone or tracker in {plate} sends its positions with a device identity (Traccar Client, OsmAnd or OwnTracks).
            Issuing a new one stops any earlier identity of this ambulance from working at once: a device set up with it
            must be set up again.
          </DialogContentText>
          {issue.isError && (
            <Alert severity="error" sx={{ mt: 2 }}>{serverErrorOr(issue.error, 'Could not issue a device identity')}</Alert>
          )}
        </DialogContent>
      )}
      <DialogActions sx={{ px: 3, py: 2 }}>
        {issued && leaving ? (
          <Box sx={{ display: 'grid', gap: 1.5, width: '100%' }}>
            <Alert severity="error" role="alert" data-testid="device-leave-warning">
              The device id is not copied. Once this closes it cannot be shown again.
            </Alert>
            <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
              <Button color="error" onClick={onClose}>Close without copying</Button>
              <Button variant="contained" autoFocus onClick={() => setLeaving(false)}>Keep it open</Button>
            </Box>
          </Box>
        ) : issued ? (
          <Button variant="contained" onClick={onClose}>Done</Button>
        ) : (
          <>
            {/* Focus on the safe choice: issuing stops the earlier identity at once. */}
            <Button color="inherit" variant="outlined" onClick={onClose} disabled={issue.isPending} autoFocus>Cancel</Button>
            <Button
              variant="contained"
              color="warning"
              onClick={() => issue.mutate(ambulance.id)}
              disabled={issue.isPending}
              startIcon={issue.isPending ? <CircularProgress size={14} color="inherit" /> : undefined}
            >
              {issue.isPending ? 'Issuing...' : 'Issue device identity'}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

function Issued({ plate, identity, copied, onCopied }: { plate: string; identity: DeviceIdentityResponse; copied: boolean; onCopied: (copied: boolean) => void }) {
  return (
    <DialogContent dividers>
      <Alert severity="warning" id="device-dialog-text" sx={{ mb: 2 }}>
        <AlertTitle>Shown only once</AlertTitle>
        Copy this device id now and put it in the device of {plate}. Lifeline keeps only a fingerprint of it and cannot show it
        again; if it is lost, issue a new one.
      </Alert>
      <Typography component="label" htmlFor="device-id" variant="caption" sx={{ fontWeight: 700, textTransform: 'uppercase', color: 'text.secondary' }}>
        Device id
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mt: 0.5, mb: 2.5 }}>
        <Box
          component="output"
          id="device-id"
          data-testid="device-id"
          sx={{ fontFamily: 'monospace', fontSize: 16, fontWeight: 600, px: 1.5, py: 1, borderRadius: 1, bgcolor: 'action.hover', overflowWrap: 'anywhere', flex: '1 1 260px', userSelect: 'all' }}
        >
          {identity.device_id}
        </Box>
        <Button
          variant="contained"
          autoFocus
          startIcon={copied ? <CheckIcon /> : <CopyIcon />}
          onClick={() => void copyText(identity.device_id).then(onCopied)}
          aria-label={copied ? 'Device id copied' : 'Copy device id'}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </Box>
      <Instructions title="Traccar Client or OsmAnd" text={identity.instructions.traccar} testId="device-instructions-traccar" />
      <Instructions title="OwnTracks" text={identity.instructions.owntracks} testId="device-instructions-owntracks" />
    </DialogContent>
  );
}

function Instructions({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <Box component="section" aria-label={`${title} set-up`} sx={{ mb: 2 }}>
      <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 700, mb: 0.5 }}>{title}</Typography>
      <Typography variant="body2" data-testid={testId} sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{text}</Typography>
    </Box>
  );
}
