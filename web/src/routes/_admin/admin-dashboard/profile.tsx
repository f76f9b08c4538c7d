import { createFileRoute } from '@tanstack/react-router';
import { ProfileScreen } from '../../../features/profile/ProfileScreen';

export const Route = createFileRoute('/_admin/admin-dashboard/profile')({ component: ProfileScreen });
