const entry = document.querySelector('script[data-app-entry]')?.getAttribute('data-app-entry');
const start = () => import(entry);
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));
else start();
