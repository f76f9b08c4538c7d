import { createFileRoute } from '@tanstack/react-router';
import { SignInPage } from '../features/signin/SignInPage';

// The same sign-in page under its second address.
export const Route = createFileRoute('/signInPage')({ component: SignInPage });
