import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { OutboxMessageDto } from '../../../api/contract';
import { formatDateTime } from '../../../domain/caseRules';
import { ExpandMoreIcon } from '../../../layout/icons';
import { MessageLinks } from './MessageLinks';
import { STATUS_TONE, kindLabel } from './outboxText';

/** One e-mail: status, recipient, subject, links, times; the full text on demand. */
export function OutboxMessageCard({ message: m }: { message: OutboxMessageDto }) {
  const [showText, setShowText] = useState(false);
  return (
    <Card component="article" aria-label={`Message to ${m.to}`} sx={{ p: { xs: 2, sm: 2.5 } }}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mb: 1.25 }}>
        <Chip size="small" label={m.status} color={STATUS_TONE[m.status] ?? 'default'} sx={{ textTransform: 'capitalize', fontWeight: 700 }} />
        <Chip size="small" label={kindLabel(m.kind)} variant="outlined" />
        <Box sx={{ flex: 1 }} />
        <Typography variant="caption" color="text.secondary">Queued {formatDateTime(m.created_at)}</Typography>
      </Stack>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, lineHeight: 1.3 }}>{m.subject}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5, wordBreak: 'break-all' }}>
        To: <Box component="span" sx={{ color: 'text.primary', fontWeight: 600 }}>{m.to}</Box>
        {m.case_id && <> · Case <Box component="span" sx={{ fontFamily: 'monospace' }}>{m.case_id.slice(0, 8)}</Box></>}
      </Typography>
      {m.links.length > 0 && <MessageLinks links={m.links} />}
      <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 1.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
        <Typography variant="caption" color="text.secondary">
          {m.sent_at ? `Sent ${formatDateTime(m.sent_at)}` : 'Not sent yet'} · {m.attempts} attempt{m.attempts === 1 ? '' : 's'}
        </Typography>
        {m.last_error && <Typography variant="caption" color="error">Last error: {m.last_error}</Typography>}
        <Box sx={{ flex: 1 }} />
        <Button size="small" onClick={() => setShowText((v) => !v)} aria-expanded={showText}
          endIcon={<ExpandMoreIcon sx={{ transform: showText ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }} />}>
          {showText ? 'Hide message' : 'Show message'}
        </Button>
      </Stack>
      <Collapse in={showText} unmountOnExit>
        <Box component="pre" sx={{ mt: 1, p: 2, borderRadius: 2, bgcolor: 'action.hover', whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'inherit', fontSize: 14, m: 0 }}>
          {m.text}
        </Box>
      </Collapse>
    </Card>
  );
}
