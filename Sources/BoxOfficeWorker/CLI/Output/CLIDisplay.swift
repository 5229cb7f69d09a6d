/// How a command shows what it got: the format, the spreadsheet BOM, the file or folder to write.
package struct CLIDisplay: Sendable {
    package var format: CLIFormat
    /// With `--format csv`: start with a UTF-8 byte order mark.
    package var excel: Bool
    /// `--out`: the file a page or a card is written to (else stdout), or with a range the static site's folder.
    package var out: String?

    package init(format: CLIFormat, excel: Bool, out: String? = nil) {
        self.format = format
        self.excel = excel
        self.out = out
    }
}
