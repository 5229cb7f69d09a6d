package import BoxOfficeCore
package import JSONCore

/// Discord execute-webhook bodies: the heading as the content, an embed per entry (title, the facts as inline
/// fields, the poster as a thumbnail, the change's colour) or one embed for a movie. Within Discord's documented
/// limits (discord.com/developers/docs/resources/message#embed-object-embed-limits): 10 embeds a message, 6,000
/// characters across a message's embeds (more go to the next message), a title 256, a description 4,096, 25 fields
/// of name 256 and value 1,024, a footer 2,048, the content 2,000, counted in characters (Unicode scalars). Markdown
/// in text is escaped (a cut never splits an escape), and
/// `allowed_mentions` is empty, so no title can ping anyone.
package enum DiscordChat {
    package static let embedsPerMessage = 10
    package static let charactersPerMessage = 6000
    package static let titleLength = 256
    package static let descriptionLength = 4096
    package static let fieldsPerEmbed = 25
    package static let fieldNameLength = 256
    package static let fieldValueLength = 1024
    package static let footerLength = 2048
    package static let contentLength = 2000

    /// The apps' colours: 신작 pink, a climb red, a fall blue, no change grey; Discord's blurple for a movie.
    package static func colour(_ trend: BoxOfficeEntry.Trend?) -> Int64 {
        switch trend {
        case .new: 0xE6_4980
        case .up: 0xE0_3131
        case .down: 0x1C_7ED6
        case .same: 0x86_8E96
        case nil: 0x58_65F2
        }
    }

    package static func render(_ content: AnswerView) -> [JSONObject] {
        var embeds: [(embed: JSONObject, size: Int)] = []
        if !content.fields.isEmpty {
            var embed: JSONObject = [
                "title": .string(markdown(content.heading, titleLength)), "color": .integer(colour(nil)),
            ]
            var size = count(embed["title"])
            if let subheading = content.subheading {
                embed["description"] = .string(markdown(subheading, descriptionLength))
                size += count(embed["description"])
            }
            if let source = content.source {
                embed["footer"] = ["text": .string(ChatText.cut(source, footerLength))]
                size += count(embed["footer"]?.objectValue?["text"])
            }
            // The fields take what the title, the description and the footer leave of the embed's 6,000: each
            // within its own limits and the room left, the last ones left out when none is.
            var fields: [JSONValue] = []
            for field in content.fields.prefix(fieldsPerEmbed) {
                let name = markdown(field.name, fieldNameLength)
                let room = min(fieldValueLength, charactersPerMessage - size - count(.string(name)))
                guard room > 1 else { break }
                let value = markdown(field.value, room)
                fields.append(
                    [
                        "name": .string(name), "value": .string(value),
                        "inline": .bool(field.value.unicodeScalars.count <= 40),
                    ])
                size += count(.string(name)) + count(.string(value))
            }
            embed["fields"] = .array(fields)
            if let image = content.imageURL { embed["thumbnail"] = ["url": .string(image)] }
            embeds.append((embed, size))
        }
        for item in content.items {
            var title = (item.rank.map { "\($0). " } ?? "") + item.title
            if let change = item.change { title += " · " + change }
            var embed: JSONObject = [
                "title": .string(markdown(title, titleLength)),
                "description": .string(
                    markdown(item.facts.map { "\($0.name) \($0.value)" }.joined(separator: " · "), descriptionLength)
                ),
                "color": .integer(colour(item.trend)),
            ]
            if let image = item.imageURL { embed["thumbnail"] = ["url": .string(image)] }
            embeds.append((embed, count(embed["title"]) + count(embed["description"])))
        }
        // A message: at most ten embeds and 6,000 characters of them; the heading (and the source) as the first
        // one's content.
        var messages: [JSONObject] = []
        var current: [JSONValue] = []
        var size = 0
        func flush() {
            var message: JSONObject = ["allowed_mentions": ["parse": []]]
            if messages.isEmpty {
                var heading = "**" + markdown(content.heading, contentLength / 2) + "**"
                if content.fields.isEmpty, let source = content.source {
                    heading += "\n-# " + markdown(source, contentLength / 4)
                }
                if content.fields.isEmpty && content.items.isEmpty { heading += "\n(nothing found)" }
                message["content"] = .string(heading)
            }
            message["embeds"] = .array(current)
            messages.append(message)
            current = []
            size = 0
        }
        for (embed, embedSize) in embeds {
            if current.count == embedsPerMessage || (size + embedSize > charactersPerMessage && !current.isEmpty) {
                flush()
            }
            current.append(.object(embed))
            size += embedSize
        }
        flush()
        return messages
    }

    private static func count(_ value: JSONValue?) -> Int {
        value?.stringValue?.unicodeScalars.count ?? 0
    }

    /// Text that stays text in Discord's Markdown: `\ * _ ~ ` | > #`, `[ ]` and `<` (which opens a mention or a
    /// link) escaped with a backslash.
    package static func escape(_ character: Character) -> String {
        "\\*_~`|<>#[]".contains(character) ? "\\" + String(character) : String(character)
    }

    /// `text` escaped, within `length` characters.
    package static func markdown(_ text: String, _ length: Int) -> String {
        ChatText.cut(text, length, escaping: escape)
    }
}
