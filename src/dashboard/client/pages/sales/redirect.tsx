// A page that only sends the browser on to another path (an old address kept working).
import { useEffect } from 'preact/hooks';
import { navigate } from '../../route.js';
import { Loading } from '../../ui.js';

export function RedirectTo(path: string) {
  return function Redirect() {
    useEffect(() => navigate(path, { replace: true }), []);
    return <Loading />;
  };
}
