import { createFileRoute } from '@tanstack/react-router';
import { SignInPage } from '../features/signin/SignInPage';

export const Route = createFileRoute('/signin')({ component: SignInPage });
