import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import { useEffect, useRef, useState } from 'react';
import { copyText } from '../../layout/clipboard';
import { CheckIcon, CloseIcon, CopyIcon } from '../../layout/icons';
import type { CreatedCall } from './useDispatchCase';
import { shareLinkTitle } from './intake';

/**
 * The share-location link of the call just created, named for whose it is ("… of Ravi Kumar's
 * call, case 1a2b3c4d"), kept on screen with a copy button until the operator dismisses it or
 * starts on the next call (the screen then removes it): it is never readable as the link of the
 * call being taken. A new link takes the focus (the call's confirmation, in place of the submit
 * button that was pressed), without scrolling the page: it sits at the top of the screen.
 */
export function ShareLinkPanel({ call, onDismiss }: { call: CreatedCall; onDismiss: () => void }) {
  const { link } = call;
  // The link last copied: a new link shows its copy button afresh.
  const [copiedLink, setCopiedLink] = useState<string | null>(null);
  const copied = copiedLink === link;
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.focus({ preventScroll: true });
    // The top of the screen (its title, this panel, the form's start), the app's header never scrolled away.
    window.scrollTo({ top: 0 });
  }, [link]);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopiedLink(null), 2500);
    return () => clearTimeout(t);
  }, [copied]);
  const title = shareLinkTitle(call);

  return (
    <Alert
      ref={panel}
      tabIndex={-1}
      role="region"
      aria-label={title}
      data-testid="share-link-panel"
      severity="success"
      variant="outlined"
      action={(
        <IconButton aria-label={`Dismiss the link of ${call.patientName}'s call`} color="inherit" size="small" onClick={onDismiss}>
          <CloseIcon fontSize="small" />
        </IconButton>
      )}
      sx={(t) => ({ mb: 3, '& .MuiAlert-message': { minWidth: 0, flex: 1 }, '&:focus-visible': { outline: `3px solid ${t.palette.secondary.main}`, outlineOffset: 2 } })}
    >
      <AlertTitle data-testid="share-link-title">{title}</AlertTitle>
      {call.queued
        ? 'The call is queued. The patient has been e-mailed this link; you can also send it yourself.'
        : 'The patient has been e-mailed this link; you can also send it yourself.'}
      {' '}It is removed when you start the next call.
      <Box sx={{ mt: 1.5, display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
        <Link
          href={link}
          target="_blank"
          rel="noopener noreferrer"
          color="inherit"
          data-testid="share-link"
          sx={{ fontFamily: 'monospace', fontSize: 14, fontWeight: 600, overflowWrap: 'anywhere', flex: '1 1 240px', minWidth: 0 }}
        >
          {link}
        </Link>
        <Button
          size="small"
          variant="contained"
          color="success"
          startIcon={copied ? <CheckIcon /> : <CopyIcon />}
          onClick={() => void copyText(link).then((ok) => setCopiedLink(ok ? link : null))}
        >
          {copied ? 'Copied' : 'Copy link'}
        </Button>
      </Box>
    </Alert>
  );
}
