import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import type { IntakeLocationDto, LatLon } from '../../api/contract';
import { queries } from '../../api/queries';
import { PlaceIcon, SearchIcon } from '../../layout/icons';
import { fromSearchResult, pinLocation, pointText, searchErrorText, searchText, sourceText } from './intakeLocation';

// Leaflet loads only with the map, after the form is already usable.
const IntakeMap = lazy(() => import('./IntakeMap'));

/** Where the map opens when the server's centre is not known (India, as the ambulance map). */
const FALLBACK_CENTRE: LatLon = { latitude: 20.5937, longitude: 78.9629 };
const HELPER = 'Address, plus code, or lat, lon — or drop a pin';

/**
 * Location at intake: one box that takes an address, a plus code or "lat, lon" (searched by the
 * server on Enter or Find, never per keystroke), or a pin dropped on the small map. What was
 * understood shows under it ("Location: …") with a Clear button; the call can go without one.
 */
export function LocationField({ value, onChange, disabled = false, emptyText = 'No location yet. The call can be dispatched without one.', inputRef, autoFocus = false }: {
  value: IntakeLocationDto | null;
  onChange: (location: IntakeLocationDto | null) => void;
  disabled?: boolean;
  /** What the field says while no location is understood. */
  emptyText?: string;
  /** Receives the text box (a form focuses it for the next call). */
  inputRef?: Ref<HTMLInputElement>;
  /** Focus the text box when it first shows (the New Case screen: a call starts with where it is). */
  autoFocus?: boolean;
}) {
  const config = useQuery(queries.config());
  const [typed, setTyped] = useState('');
  /** The last text searched for (on Enter or Find). */
  const [search, setSearch] = useState<string | null>(null);
  const [listOpen, setListOpen] = useState(false);
  const found = useQuery({ ...queries.geocodeSearch(search ?? ''), enabled: search != null });
  const listRef = useRef<HTMLUListElement>(null);

  const results = search ? found.data : undefined;
  const searching = search != null && found.isFetching;
  const failed = search != null && found.isError;
  const showList = listOpen && !searching && (results?.length ?? 0) > 1;

  const qc = useQueryClient();
  const latest = useRef(0);
  const alive = useRef(false);
  useEffect(() => {
    alive.current = true;
    return () => { alive.current = false; };
  }, []);
  const runSearch = () => {
    const q = searchText(typed);
    if (!q) return;
    const n = latest.current + 1;
    latest.current = n;
    setSearch(q);
    setListOpen(true);
    // One place found is what the operator meant: taken at once, unless a newer search or a reset came first.
    // The same request as the query above (shared by key); a failure shows through that query.
    qc.fetchQuery(queries.geocodeSearch(q)).then((list) => {
      if (alive.current && latest.current === n && list.length === 1) onChange(fromSearchResult(list[0]));
    }, () => undefined);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      // Enter here searches; it must not submit the whole form.
      e.preventDefault();
      runSearch();
    } else if (e.key === 'ArrowDown' && showList) {
      e.preventDefault();
      listRef.current?.querySelector<HTMLElement>('[data-place]')?.focus();
    }
  };
  const onListKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const items = [...(listRef.current?.querySelectorAll<HTMLElement>('[data-place]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    items[Math.min(items.length - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)))]?.focus();
  };
  const clear = () => {
    setTyped('');
    setSearch(null);
    setListOpen(false);
    onChange(null);
  };

  const helper = searching
    ? 'Searching…'
    : failed
      ? searchErrorText(found.error)
      : listOpen && results?.length === 0
        ? 'Nothing found for this text: try a plus code, "lat, lon", or drop a pin'
        : showList ? `${results!.length} places found: choose one below` : HELPER;
  const centre = value ?? config.data?.centre ?? (config.isError ? FALLBACK_CENTRE : null);

  const coordinates = value ? pointText(value.latitude, value.longitude) : '';

  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          label="Location"
          fullWidth
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={onKeyDown}
          autoComplete="off"
          disabled={disabled}
          inputRef={inputRef}
          autoFocus={autoFocus}
          error={failed}
          helperText={helper}
          slotProps={{ htmlInput: { enterKeyHint: 'search', 'data-testid': 'location-input' } }}
        />
        <Button
          type="button"
          variant="outlined"
          onClick={runSearch}
          disabled={disabled || searching || !searchText(typed)}
          startIcon={searching ? <CircularProgress size={16} color="inherit" /> : <SearchIcon />}
          sx={{ height: 56, flex: 'none' }}
        >
          Find
        </Button>
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'minmax(0, 1fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }}>
          {showList && (
            <List ref={listRef} dense aria-label="Places found" onKeyDown={onListKeyDown} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, py: 0 }}>
              {results!.map((r) => (
                <ListItem key={`${r.latitude},${r.longitude},${r.displayName}`} disablePadding>
                  <ListItemButton data-place disabled={disabled} onClick={() => { setListOpen(false); onChange(fromSearchResult(r)); }}>
                    <ListItemText primary={r.displayName} secondary={`${pointText(r.latitude, r.longitude)} · ${sourceText(r.source)}`} />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          )}
          <Box aria-live="polite" data-testid="intake-understood">
            {value ? (
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }}>
                <PlaceIcon color="error" sx={{ mt: 0.25 }} aria-hidden />
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>Location: {value.address}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {value.address === coordinates ? '' : `${coordinates} · `}from {sourceText(value.source)}
                  </Typography>
                </Box>
                <Button type="button" size="small" color="inherit" onClick={clear} disabled={disabled} aria-label="Clear location">Clear</Button>
              </Box>
            ) : (
              <Typography variant="body2" color="text.secondary">{emptyText}</Typography>
            )}
          </Box>
        </Box>
        <Box>
          <Box role="group" aria-label="Map: click to drop a pin at the call's location" data-testid="intake-map" sx={{ height: 180, borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'divider' }}>
            {centre ? (
              <Suspense fallback={<MapPlaceholder text="Loading map…" />}>
                <IntakeMap centre={centre} value={value} onPick={(p) => { setListOpen(false); onChange(pinLocation(p.latitude, p.longitude)); }} disabled={disabled} />
              </Suspense>
            ) : <MapPlaceholder text="Loading map…" />}
          </Box>
          <Typography variant="caption" color="text.secondary">Click the map to drop a pin.</Typography>
        </Box>
      </Box>
    </Box>
  );
}

function MapPlaceholder({ text }: { text: string }) {
  return (
    <Box sx={{ height: '100%', display: 'grid', placeItems: 'center', bgcolor: '#e3e6ea', color: '#37474f' }}>
      <Typography variant="body2">{text}</Typography>
    </Box>
  );
}
