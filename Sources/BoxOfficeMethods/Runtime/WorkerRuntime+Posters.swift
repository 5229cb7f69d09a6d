package import BoxOfficeCore

extension WorkerRuntime {
    /// The posters at `urls` that this worker can download, downloaded (or read from the cache), by image address,
    /// for a page or a card. Offline or without a cache directory there are none (a page then links the addresses);
    /// a poster that fails is left out and said through `warn`, never failing what shows it.
    package func downloadedPosters(_ urls: Set<String>, warn: (String) -> Void) async -> [String: PosterFile] {
        guard !urls.isEmpty, downloadRefusal == nil else { return [:] }
        return await withTaskGroup(of: (String, Result<PosterFile, BoxOfficeError>).self) { group in
            for url in urls {
                group.addTask {
                    // Through Result(awaiting:): a do/catch returning this tuple is miscompiled under -O.
                    let result = await Result { () async throws(BoxOfficeError) in try await self.download(url) }
                    return (url, result)
                }
            }
            var files: [String: PosterFile] = [:]
            for await (url, result) in group {
                switch result {
                case .success(let file): files[url] = file
                case .failure(let error): warn("a poster is left out: \(error.message)")
                }
            }
            return files
        }
    }
}
