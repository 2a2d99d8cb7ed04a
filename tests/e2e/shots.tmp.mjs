import { launch, openPage, serveStatic } from "./harness.mjs";
const D = "/work/main/corpus/cache/documents/readme-oas-examples";
const site = await serveStatic(process.env.DIST_DIR, { extra: {
  "/f/train.json": `${D}/3.1/json/train-travel.json`,
  "/f/pet2.json": `${D}/2.0/json/petstore.json`,
}});
const browser = await launch();
const shots = [
  ["train-overview", "f/train.json", ""],
  ["train-webhook", "f/train.json", "#new-booking"],
  ["train-schema", "f/train.json", "#schema/Booking"],
  ["train-tag", "f/train.json", "#tag/Bookings"],
  ["train-op", "f/train.json", "#create-booking"],
  ["pet2-overview", "f/pet2.json", ""],
  ["pet2-op", "f/pet2.json", "#addPet"],
];
for (const [name, doc, hash] of shots) {
  for (const scheme of ["light", "dark"]) {
    for (const [w, h, tag] of [[1280, 900, "desk"], [390, 844, "phone"]]) {
      const { page, context, problems } = await openPage(browser, `${site.url}?url=${doc}${hash}`, { colorScheme: scheme, viewport: { width: w, height: h } });
      await page.waitForSelector("[data-testid=operation]");
      await page.waitForTimeout(600);
      await page.screenshot({ path: `/tmp/shots/${name}-${scheme}-${tag}.png`, fullPage: false });
      if (problems.length) console.log(name, problems);
      await context.close();
    }
  }
}
await browser.close(); await site.close();
