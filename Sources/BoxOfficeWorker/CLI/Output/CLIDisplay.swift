/// How a command shows what it got: the format, the spreadsheet BOM.
package struct CLIDisplay: Sendable {
    package var format: CLIFormat
    /// With `--format csv`: start with a UTF-8 byte order mark.
    package var excel: Bool

    package init(format: CLIFormat, excel: Bool) {
        self.format = format
        self.excel = excel
    }
}
