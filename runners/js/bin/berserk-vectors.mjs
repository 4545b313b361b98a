#!/usr/bin/env node
// Команда пакета (npx berserk-vectors, node_modules/.bin/berserk-vectors): всегда запускает прогон.
// Отдельный файл, а не проверка «запущен ли модуль как программа»: через символическую ссылку в
// node_modules/.bin и через npx путь в process.argv[1] — не путь модуля, и такая проверка молча
// ничего не делала бы (код выхода 0 — ложный успех).
import { main } from "../replay.mjs";

process.exitCode = await main(process.argv.slice(2));
