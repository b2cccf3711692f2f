// ---- The reader (po/module-words.js, appended by po/module-words.py) ----

function escaped(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

// A catalogue template ("Wrong pattern. %s tries left...") as an anchored pattern, each %s or %N$s a group.
function pattern(template) {
    var parts = template.split(/%(?:\d\$)?s/)
    return new RegExp("^" + parts.map(escaped).join("(.+?)") + "$")
}

function fill(template, values) {
    var next = 0
    return template.replace(/%(\d\$)?s/g, function (match, position) {
        return String(values[position ? Number(position[0]) - 1 : next++])
    })
}

function decimal(text) {
    return /^[0-9]{1,12}$/.test(text) ? Number(text) : -1
}

// "4 minutes" in a language: seconds, -1 if it is not one unit's words.
function unitSeconds(language, text) {
    var units = [[language.seconds, 1], [language.minutes, 60], [language.hours, 3600]]
    for (var u = 0; u < units.length; ++u) {
        for (var f = 0; f < units[u][0].length; ++f) {
            var match = pattern(units[u][0][f]).exec(text)
            if (match && decimal(match[1]) >= 0) return decimal(match[1]) * units[u][1]
        }
    }
    return -1
}

// A wait as DurationWords says it ("45 seconds", "4 minutes 54 seconds"): seconds, -1 if not one.
function durationSeconds(language, text) {
    var single = unitSeconds(language, text)
    if (single >= 0) return single
    var between = language.pair.split(/%\d\$s/)
    if (between.length !== 3 || between[1] === "") return -1
    for (var at = text.indexOf(between[1]); at >= 0; at = text.indexOf(between[1], at + 1)) {
        var head = text.slice(0, at), tail = text.slice(at + between[1].length)
        if (!text.startsWith(between[0]) || !tail.endsWith(between[2])) continue
        var larger = unitSeconds(language, head.slice(between[0].length))
        var rest = unitSeconds(language, tail.slice(0, tail.length - between[2].length))
        if (larger >= 0 && rest >= 0) return larger + rest
    }
    return -1
}

// What the module said, read back: {kind: "wrong" | "wait" | "disabled" | "other", language, triesLeft
// (wrong; -1 when not said), seconds (wait), afterWrong (the message began "Wrong pattern."), route (the
// sentence for a forgotten pattern that ended it, "" if none)}.
function read(message) {
    var text = String(message)
    for (var l = 0; l < languages.length; ++l) {
        var language = languages[l]
        var body = text, route = ""
        var routes = [language.routeSelf, language.routeAdmin]
        for (var r = 0; r < routes.length; ++r) {
            if (body.endsWith(" " + routes[r])) {
                route = routes[r]
                body = body.slice(0, body.length - routes[r].length - 1)
                break
            }
        }
        var found = { kind: "other", language: language.name, triesLeft: -1, seconds: -1, afterWrong: false, route: route }
        if (body === language.wrong) {
            found.kind = "wrong"
            found.afterWrong = true
            return found
        }
        for (var f = 0; f < language.wrongTries.length; ++f) {
            var tries = pattern(language.wrongTries[f]).exec(body)
            if (tries && decimal(tries[1]) >= 0) {
                found.kind = "wrong"
                found.afterWrong = true
                found.triesLeft = decimal(tries[1])
                return found
            }
        }
        var waits = [[language.wait, false], [language.wrongWait, true]]
        for (var w = 0; w < waits.length; ++w) {
            var wait = pattern(waits[w][0]).exec(body)
            if (wait && durationSeconds(language, wait[1]) >= 0) {
                found.kind = "wait"
                found.afterWrong = waits[w][1]
                found.seconds = durationSeconds(language, wait[1])
                return found
            }
        }
        if (body === language.disabled || body === language.wrongDisabled) {
            found.kind = "disabled"
            found.afterWrong = body === language.wrongDisabled
            return found
        }
    }
    return { kind: "other", language: "", triesLeft: -1, seconds: -1, afterWrong: false, route: "" }
}

function languageNamed(name) {
    for (var l = 0; l < languages.length; ++l) if (languages[l].name === name) return languages[l]
    return languages[0]
}

// A wait in a language's words, as DurationWords.said: its largest unit and the next smaller one.
function durationSaid(name, seconds) {
    var language = languageNamed(name)
    var s = Math.max(1, Math.floor(seconds))
    function count(n, forms) {
        var form = Math.min(language.plural(n), forms.length - 1)
        return fill(forms[form], [n])
    }
    if (s < 60) return count(s, language.seconds)
    var larger, rest
    if (s < 3600) {
        larger = count(Math.floor(s / 60), language.minutes)
        rest = s % 60 > 0 ? count(s % 60, language.seconds) : ""
    } else {
        larger = count(Math.floor(s / 3600), language.hours)
        rest = Math.floor((s % 3600) / 60) > 0 ? count(Math.floor((s % 3600) / 60), language.minutes) : ""
    }
    return rest === "" ? larger : fill(language.pair, [larger, rest])
}

// What a screen shows for what the module said: the same, but a sentence for a forgotten pattern (a command, or
// an administrator) becomes the one that works at a lock or login screen, in the same language ("Forgot your
// pattern? Use your password.").
function atScreen(message) {
    var said = read(message)
    if (said.route === "") return String(message)
    var text = String(message)
    return text.slice(0, text.length - said.route.length) + languageNamed(said.language).routeScreen
}

// The sentence for a forgotten pattern that a screen says, in a language.
function screenRoute(name) {
    return languageNamed(name).routeScreen
}

// The module's sentence for a wait of `seconds` still to run, in a language, the route sentence after it.
function waitSaid(name, seconds, route) {
    var text = fill(languageNamed(name).wait, [durationSaid(name, seconds)])
    return route ? text + " " + route : text
}

// Whether text is one of the forms with its number filled in.
function saysTries(forms, text) {
    for (var f = 0; f < forms.length; ++f) {
        var match = pattern(forms[f]).exec(text)
        if (match && decimal(match[1]) >= 0) return true
    }
    return false
}

// The kind of an echo-off PAM prompt: "pattern" (pam_pattern's: a drawing answers it), "patternOrPassword"
// (forward_pass: either answers it), or "password" (anything else: the password field answers it).
function promptKind(prompt) {
    for (var l = 0; l < languages.length; ++l) {
        if (prompt === languages[l].patternPrompt) return "pattern"
        if (prompt === languages[l].patternOrPasswordPrompt) return "patternOrPassword"
        // Under PAM_SILENT the prompt carries the tries left ("Pattern (3 tries before a wait): ").
        if (saysTries(languages[l].patternPromptTries, prompt)) return "pattern"
        if (saysTries(languages[l].patternOrPasswordPromptTries, prompt)) return "patternOrPassword"
    }
    return "password"
}

// The lock screen's own words (marked Words.tr("...") in its QML): the translation in the language of
// `localeName` (Qt's locale name, "zh_CN"; by default the running locale's, from LANG), else as written.
function tr(text, localeName) {
    var name = localeName === undefined ? Qt.locale().name : localeName
    var wanted = [name, name.split("_")[0]]
    for (var w = 0; w < wanted.length; ++w) {
        for (var i = 0; i < languages.length; ++i) {
            var translated = languages[i].name === wanted[w] ? languages[i].screen[text] : undefined
            if (translated) return translated
        }
    }
    return text
}
