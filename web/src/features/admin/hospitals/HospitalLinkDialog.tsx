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
import type { HospitalDto } from '../../../api/contract';
import { mutations } from '../../../api/mutations';
import { useApiMutation } from '../../../api/useApiMutation';
import { copyText } from '../../../layout/clipboard';
import { CheckIcon, CopyIcon } from '../../../layout/icons';
import { serverErrorOr } from '../shared/errors';
import { useShowOnceClose } from '../shared/useShowOnceClose';

/**
 * A hospital's page link (admins), as the device identity is given: first a confirmation (a new
 * link replaces the one before, whose page stops working at once), then the link, shown this once
 * (the server keeps only its hash) with a Copy button. While it shows, a click beside the dialog
 * does nothing and Escape, until it is copied, asks first: only Done closes it at once.
 */
export function HospitalLinkDialog({ open, hospital, onClose }: { open: boolean; hospital: HospitalDto; onClose: () => void }) {
  const make = useApiMutation(mutations.makeHospitalLink);
  const made = make.data?.link;
  const { copied, setCopied, leaving, setLeaving, requestClose } = useShowOnceClose({ pending: make.isPending, shown: Boolean(made), onClose });
  return (
    <Dialog
      open={open}
      onClose={requestClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="hospital-link-title"
      aria-describedby="hospital-link-text"
    >
      <DialogTitle id="hospital-link-title">{made ? `Page link for ${hospital.name}` : `Make a page link for ${hospital.name}?`}</DialogTitle>
      {made ? (
        <DialogContent dividers>
          <Alert severity="warning" id="hospital-link-text" sx={{ mb: 2 }}>
            <AlertTitle>Shown only once</AlertTitle>
            Copy this link now and send it to {hospital.name}'s emergency department. Anyone with it sees the ambulances coming
            to the hospital, so share it only with the department. Lifeline cannot show it again; if it is lost, make a new one
            (it replaces this one).
          </Alert>
          <Typography component="label" htmlFor="hospital-link" variant="caption" sx={{ fontWeight: 700, textTransform: 'uppercase', color: 'text.secondary' }}>
            Hospital page link
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mt: 0.5 }}>
            <Box
              component="output"
              id="hospital-link"
              data-testid="hospital-link"
              sx={{ fontFamily: 'monospace', fontSize: 14, fontWeight: 600, px: 1.5, py: 1, borderRadius: 1, bgcolor: 'action.hover', overflowWrap: 'anywhere', flex: '1 1 260px', userSelect: 'all' }}
            >
              {made}
            </Box>
            <Button
              variant="contained"
              autoFocus
              startIcon={copied ? <CheckIcon /> : <CopyIcon />}
              onClick={() => void copyText(made).then(setCopied)}
              aria-label={copied ? 'Link copied' : 'Copy link'}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </Box>
        </DialogContent>
      ) : (
        <DialogContent dividers>
          <DialogContentText id="hospital-link-text">
            The hospital's page shows the ambulances coming to it with their pre-alerts, lets its staff acknowledge them,
            press Handover complete and set the hospital's diversion status. No sign-in: the link is the permission.
            {hospital.has_link && ' A new link replaces the old one: the page opened with the old link stops working at once.'}
          </DialogContentText>
          {make.isError && <Alert severity="error" sx={{ mt: 2 }}>{serverErrorOr(make.error, 'Could not make a link')}</Alert>}
        </DialogContent>
      )}
      <DialogActions sx={{ px: 3, py: 2 }}>
        {made && leaving ? (
          <Box sx={{ display: 'grid', gap: 1.5, width: '100%' }}>
            <Alert severity="error" role="alert" data-testid="hospital-link-leave-warning">
              The link is not copied. Once this closes it cannot be shown again.
            </Alert>
            <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
              <Button color="error" onClick={onClose}>Close without copying</Button>
              <Button variant="contained" autoFocus onClick={() => setLeaving(false)}>Keep it open</Button>
            </Box>
          </Box>
        ) : made ? (
          <Button variant="contained" onClick={onClose}>Done</Button>
        ) : (
          <>
            {/* Focus on the safe choice when a link exists: a new one stops it. */}
            <Button color="inherit" variant="outlined" onClick={onClose} disabled={make.isPending} autoFocus={hospital.has_link}>Cancel</Button>
            <Button
              variant="contained"
              color={hospital.has_link ? 'warning' : 'primary'}
              onClick={() => make.mutate(hospital.id)}
              disabled={make.isPending}
              autoFocus={!hospital.has_link}
              startIcon={make.isPending ? <CircularProgress size={14} color="inherit" /> : undefined}
            >
              {make.isPending ? 'Making...' : hospital.has_link ? 'Make a new link' : 'Make link'}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
