import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { plural } from '../../../domain/plural';

/** "3 new or changed calls", or without a count when events may have been missed (a reconnect). */
export const changesText = (count: number | null) => (count == null ? 'New or changed calls' : `${plural(count, 'new or changed call', 'new or changed calls')}`);

/**
 * Over an open history page: calls changed since it was fetched. The page itself stays as it
 * is (a reader's row does not jump away); "show" fetches it again. Nothing while none changed.
 */
export function HistoryChangesBanner({ count, onShow }: { count: number | null; onShow: () => void }) {
  if (count === 0) return null;
  return (
    <Alert severity="info" role="status" data-testid="history-changes" sx={{ mb: 2, alignItems: 'center' }}>
      {changesText(count)} —{' '}
      <Link component="button" type="button" onClick={onShow} sx={{ verticalAlign: 'baseline', fontWeight: 600 }}>
        show
      </Link>
    </Alert>
  );
}
