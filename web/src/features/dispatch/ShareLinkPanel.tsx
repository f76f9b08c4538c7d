import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useEffect, useRef, useState } from 'react';
import { copyText } from '../../layout/clipboard';
import { CheckIcon, CopyIcon } from '../../layout/icons';

/** The last dispatched case's share-location link, kept on screen with a copy button. */
export function ShareLinkPanel({ link }: { link: string }) {
  // The link last copied: a new link shows its copy button afresh.
  const [copiedLink, setCopiedLink] = useState<string | null>(null);
  const copied = copiedLink === link;
  const panel = useRef<HTMLDivElement>(null);
  // A new link: bring it into view (the submit button may be far below on a phone).
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [link]);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopiedLink(null), 2500);
    return () => clearTimeout(t);
  }, [copied]);

  return (
    <Alert ref={panel} severity="success" variant="outlined" sx={{ mb: 3, scrollMarginTop: 88, '& .MuiAlert-message': { minWidth: 0, flex: 1 } }}>
      <AlertTitle>Share-location link</AlertTitle>
      The patient has been e-mailed this link; you can also send it yourself.
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
