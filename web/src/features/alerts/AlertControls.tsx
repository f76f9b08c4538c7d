import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useToast } from '../../layout/toast';
import { askDesktopPermission, desktopPermission } from './desktopNotify';
import { NotificationsActiveIcon, VolumeOffIcon, VolumeUpIcon } from './icons';
import { useMuted } from './useMuted';

/**
 * The header's alert switches: the mute toggle (its name stays "Mute alerts"; aria-pressed says
 * whether it is on), and while the browser has not been asked, "Enable desktop alerts" — the
 * only place the permission is requested, on a press, never on load.
 */
export function AlertControls({ userId }: { userId: number }) {
  const { muted, toggle } = useMuted(userId);
  const toast = useToast();
  const [permission, setPermission] = useState(desktopPermission);

  const enable = async () => {
    const answer = await askDesktopPermission();
    setPermission(answer);
    if (answer === 'granted') toast('Desktop alerts are on', 'success');
    else if (answer === 'denied') toast('Desktop alerts are blocked in this browser', 'warning');
  };

  return (
    <>
      {permission === 'default' && (
        <Tooltip title="Enable desktop alerts">
          <IconButton aria-label="Enable desktop alerts" onClick={() => void enable()}>
            <NotificationsActiveIcon />
          </IconButton>
        </Tooltip>
      )}
      <Tooltip title={muted ? 'Alerts muted: no sound, no desktop notifications. Press to unmute' : 'Mute alert sounds and desktop notifications'}>
        <IconButton aria-label="Mute alerts" aria-pressed={muted} onClick={toggle}>
          {muted ? <VolumeOffIcon /> : <VolumeUpIcon />}
        </IconButton>
      </Tooltip>
    </>
  );
}
