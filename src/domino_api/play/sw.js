// The service worker of /play: shows each Web Push notice (a turn at a correspondence table,
// docs/API.md) and opens its match when the notification is clicked. The page's types are a
// window's (tsconfig.json), so the worker's own scope and events are typed loosely here.

/** @type {any} */
const worker = self;

worker.addEventListener("push", (/** @type {any} */ event) => {
  const notice = event.data ? event.data.json() : {};
  const title = `${notice.title || "Dominoes"}: ${notice.body || "Your turn"}`;
  event.waitUntil(
    worker.registration.showNotification(title, {
      body: notice.deadline ? `Move by ${new Date(notice.deadline).toLocaleString()}` : "",
      tag: notice.match,
      data: { url: notice.url || "/play/" },
    }),
  );
});

worker.addEventListener("notificationclick", (/** @type {any} */ event) => {
  event.notification.close();
  event.waitUntil(worker.clients.openWindow(event.notification.data.url));
});
